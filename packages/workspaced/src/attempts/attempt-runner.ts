/**
 * @module Runs attempts: starts a profile's agent in a terminal whose cwd is the attempt's
 * worktree (the project's folder there), follows its exit (0: the attempt `completed` and the
 * task goes to `review`; otherwise `failed`, and so does the task, with its attention item),
 * types follow-ups into a running agent or starts the profile again in the same worktree, and
 * stops it. The task follows its attempts only while none of them still runs. Changes to one
 * attempt are serialized; each is published as `attempt.updated` on `project:<id>`. After a
 * restart, attempts that were running are `failed` (their terminal died with the daemon).
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow, TaskAttemptRow, TaskRow } from '../db/schema.js';
import { canonicalRoot } from '../files/rooted-path.js';
import { openProjectRepository } from '../git/project-repository.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AttentionCenter } from '../realtime/attention-center.js';
import type { EventBus } from '../realtime/event-bus.js';
import { noteTaskState } from '../realtime/task-attention.js';
import { KeyedMutex } from '../sync/keyed-mutex.js';
import { publishTask } from '../tasks/task-events.js';
import type { TaskState } from '../tasks/task-schema.js';
import { findTask, setTaskState } from '../tasks/task-store.js';
import { findOnPath } from '../terminals/agents/installed-agents.js';
import {
  type TerminalManager,
  TerminalQuotaExceeded,
  TooManyTerminals,
} from '../terminals/terminal-manager.js';
import { exitTailBytes, type TerminalExit } from '../terminals/terminal-session.js';
import { type AgentLaunch, prepareLaunch, removePromptFile } from './agent-launch.js';
import type { AgentProfile } from './agent-profiles.js';
import {
  type AttemptState,
  attemptView,
  findAttempt,
  insertAttempt,
  listAttempts,
  runningAttempts,
  updateAttempt,
} from './attempt-store.js';
import { attemptWorktree, currentBranch, requireBranch } from './attempt-worktree.js';

/** Size of an agent's terminal until a watcher resizes it. */
const agentTerminalSize = { cols: 120, rows: 32 };

interface AttemptRunnerDeps {
  db: WorkspacedDb;
  dataDir: string;
  terminals: TerminalManager;
  events: EventBus;
  attention: AttentionCenter;
  logger: Logger;
  profiles: readonly AgentProfile[];
}

interface StartAttempt {
  task: TaskRow;
  project: ProjectRow;
  profile: string;
  prompt: string | undefined;
  baseBranch: string | undefined;
  userId: string;
}

/** The prompt of a start without one: the task's title and description. */
function taskPrompt(task: Pick<TaskRow, 'title' | 'description'>): string {
  return task.description.trim() === '' ? task.title : `${task.title}\n\n${task.description}`;
}

export class AttemptRunner {
  private readonly locks = new KeyedMutex();
  /** Attempts being stopped on request, whose exit is a stop rather than a failure. */
  private readonly stopping = new Set<number>();
  private shuttingDown = false;

  constructor(private readonly deps: AttemptRunnerDeps) {}

  get profiles(): readonly AgentProfile[] {
    return this.deps.profiles;
  }

  profile(name: string): AgentProfile {
    const profile = this.deps.profiles.find((candidate) => candidate.name === name);
    if (!profile)
      throw new ApiError(
        'AGENT_PROFILE_NOT_FOUND',
        `no agent profile ${name}; GET /agent-profiles lists them`,
      );
    return profile;
  }

  /** Called once at start-up: attempts whose agent died with the daemon failed. */
  async recover(): Promise<void> {
    for (const attempt of await runningAttempts(this.deps.db)) {
      await updateAttempt(this.deps.db, attempt.id, {
        state: 'failed',
        terminal_id: null,
        finished_at: Date.now(),
      });
      await this.settleTask(attempt.task_id, 'failed');
    }
  }

  /** The daemon stops: terminals are about to be killed, which must not fail their attempts now. */
  stop(): void {
    this.shuttingDown = true;
  }

  async start(input: StartAttempt): Promise<TaskAttemptRow> {
    const profile = this.profile(input.profile);
    // Refused before anything is made: no worktree or attempt for an agent that is not installed.
    if ((await findOnPath(profile.command)) === null)
      throw new ApiError('AGENT_UNAVAILABLE', `${profile.command} is not on the daemon's PATH`, {
        profile: profile.name,
      });
    const repository = await openProjectRepository(await canonicalRoot(input.project.path));
    const baseBranch =
      input.baseBranch === undefined
        ? await currentBranch(repository)
        : await requireBranch(repository, input.baseBranch);
    const attempt = await this.locks.run(`task:${input.task.id}`, async () => {
      const task = (await findTask(this.deps.db, input.task.id)) ?? input.task;
      const number = (await listAttempts(this.deps.db, task.id)).length + 1;
      const worktree = await attemptWorktree(this.deps, repository, task, number, baseBranch);
      return insertAttempt(this.deps.db, {
        task_id: task.id,
        project_id: task.project_id,
        profile: profile.name,
        branch: worktree.branch,
        base_branch: baseBranch,
        worktree_path: worktree.path,
        created_by: input.userId,
      });
    });
    return this.locks.run(`attempt:${attempt.id}`, async () => {
      try {
        const terminalId = await this.launch(
          attempt,
          profile,
          input.prompt ?? taskPrompt(input.task),
          input.userId,
          repository.prefix,
        );
        const running = await updateAttempt(this.deps.db, attempt.id, { terminal_id: terminalId });
        this.publish(running);
        await this.setTask(attempt.task_id, 'running');
        return running;
      } catch (error) {
        this.publish(
          await updateAttempt(this.deps.db, attempt.id, { state: 'failed', finished_at: Date.now() }),
        );
        throw error;
      }
    });
  }

  /** Types `prompt` into the running agent, or starts the profile again with it in the same worktree. */
  async followUp(attemptId: number, prompt: string, userId: string) {
    return this.locks.run(`attempt:${attemptId}`, async () => {
      const attempt = await this.current(attemptId);
      const session = attempt.terminal_id === null ? undefined : this.deps.terminals.get(attempt.terminal_id);
      if (attempt.state === 'running' && session) {
        session.write(`${prompt}\r`);
        return { attempt, delivered: 'typed' as const };
      }
      const repository = await openProjectRepository(await canonicalRoot((await this.project(attempt)).path));
      const terminalId = await this.launch(
        attempt,
        this.profile(attempt.profile),
        prompt,
        userId,
        repository.prefix,
      );
      const restarted = await updateAttempt(this.deps.db, attempt.id, {
        terminal_id: terminalId,
        state: 'running',
        exit_code: null,
        output_tail: null,
        finished_at: null,
      });
      this.publish(restarted);
      await this.setTask(attempt.task_id, 'running');
      return { attempt: restarted, delivered: 'restarted' as const };
    });
  }

  /** Ends a running attempt's agent (SIGHUP, then SIGKILL); the attempt is then `stopped`. */
  async stopAttempt(attemptId: number): Promise<TaskAttemptRow> {
    const attempt = await this.current(attemptId);
    if (attempt.state !== 'running')
      throw new ApiError('ATTEMPT_NOT_RUNNING', `attempt ${attempt.id} is ${attempt.state}`, {
        state: attempt.state,
      });
    const session = attempt.terminal_id === null ? undefined : this.deps.terminals.get(attempt.terminal_id);
    if (session) {
      this.stopping.add(attempt.id);
      await this.deps.terminals.terminate(session);
    }
    // The exit handler queued its update on this key before terminate resolved.
    return this.locks.run(`attempt:${attemptId}`, async () => {
      const now = await this.current(attemptId);
      if (now.state !== 'running' || now.terminal_id !== attempt.terminal_id) return now;
      const stopped = await updateAttempt(this.deps.db, attemptId, {
        state: 'stopped',
        finished_at: Date.now(),
      });
      this.publish(stopped);
      await this.settleTask(stopped.task_id, 'todo');
      return stopped;
    });
  }

  /** The attempt's branch landed as `commit`: recorded, and the task is done. */
  async landed(attemptId: number, commit: string): Promise<TaskAttemptRow> {
    const attempt = await updateAttempt(this.deps.db, attemptId, { landed_commit: commit });
    this.publish(attempt);
    await this.setTask(attempt.task_id, 'done');
    return attempt;
  }

  private async current(attemptId: number): Promise<TaskAttemptRow> {
    const attempt = await findAttempt(this.deps.db, attemptId);
    if (!attempt) throw notFound('attempt');
    return attempt;
  }

  private async project(attempt: TaskAttemptRow): Promise<ProjectRow> {
    const project = await this.deps.db
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', attempt.project_id)
      .executeTakeFirst();
    if (!project) throw notFound('project');
    return project;
  }

  /** Starts the agent in the attempt's worktree; returns its terminal's id. */
  private async launch(
    attempt: TaskAttemptRow,
    profile: AgentProfile,
    prompt: string,
    userId: string,
    prefix: string,
  ): Promise<number> {
    const worktree = await realpath(attempt.worktree_path).catch(() => {
      throw new ApiError('WORKTREE_MISSING', `the attempt's worktree ${attempt.worktree_path} is gone`);
    });
    const projectFolder = path.join(worktree, prefix);
    const cwd = (await stat(projectFolder).catch(() => null))?.isDirectory() ? projectFolder : worktree;
    const launch = await prepareLaunch(this.deps.dataDir, profile, prompt, {
      WORKSPACED_TASK_ID: String(attempt.task_id),
      WORKSPACED_ATTEMPT_ID: String(attempt.id),
    });
    try {
      const session = this.deps.terminals.create({
        projectId: attempt.project_id,
        createdBy: userId,
        shell: launch.program,
        args: launch.args,
        shownArgs: launch.shownArgs,
        cwd,
        env: launch.env,
        ...agentTerminalSize,
      });
      session.onExit((exit) => {
        const output = session.recentOutput(exitTailBytes);
        this.exited(attempt.id, session.info.id, exit, output, launch).catch((error: unknown) =>
          this.deps.logger.error({ err: error, attempt: attempt.id }, 'recording an agent exit failed'),
        );
      });
      return session.info.id;
    } catch (error) {
      await removePromptFile(launch);
      if (error instanceof TooManyTerminals)
        throw new ApiError('TOO_MANY_TERMINALS', 'the daemon runs its maximum number of terminals');
      if (error instanceof TerminalQuotaExceeded)
        throw new ApiError(
          'TERMINAL_QUOTA_EXCEEDED',
          `you already run ${error.limit} terminals; terminate one first`,
          {
            limit: error.limit,
          },
        );
      throw error;
    }
  }

  private exited(
    attemptId: number,
    terminalId: number,
    exit: TerminalExit,
    output: string,
    launch: AgentLaunch,
  ): Promise<void> {
    return this.locks.run(`attempt:${attemptId}`, async () => {
      await removePromptFile(launch);
      if (this.shuttingDown) return;
      const attempt = await findAttempt(this.deps.db, attemptId);
      // A follow-up started the agent again meanwhile: this exit is the old run's.
      if (!attempt || attempt.terminal_id !== terminalId || attempt.state !== 'running') return;
      const stopped = this.stopping.delete(attemptId);
      const state: AttemptState = stopped ? 'stopped' : exit.exitCode === 0 ? 'completed' : 'failed';
      const ended = await updateAttempt(this.deps.db, attemptId, {
        state,
        exit_code: exit.exitCode,
        output_tail: output,
        finished_at: Date.now(),
      });
      this.publish(ended);
      await this.settleTask(
        ended.task_id,
        state === 'completed' ? 'review' : state === 'failed' ? 'failed' : 'todo',
      );
    });
  }

  /** Moves the task to `state` unless another of its attempts still runs. */
  private async settleTask(taskId: number, state: TaskState): Promise<void> {
    const attempts = await listAttempts(this.deps.db, taskId);
    if (attempts.some((attempt) => attempt.state === 'running')) return;
    await this.setTask(taskId, state);
  }

  private async setTask(taskId: number, state: TaskState): Promise<void> {
    const task = await findTask(this.deps.db, taskId);
    if (!task || task.state === state) return;
    const moved = await setTaskState(this.deps.db, taskId, state);
    publishTask(this.deps.events, 'task.updated', moved);
    noteTaskState(this.deps.attention, moved);
  }

  private publish(attempt: TaskAttemptRow): void {
    this.deps.events.publish(`project:${attempt.project_id}`, 'attempt.updated', { ...attemptView(attempt) });
  }
}
