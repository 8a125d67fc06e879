/**
 * @module Runs workflows. A run walks its steps in order: an `agent` step spawns its argument
 * array in a terminal of the run's project (the terminal manager's, so people watch it on the
 * terminal socket) and completes when the program exits 0, fails the run otherwise; an
 * `approval` step sets the run `waiting_approval` and raises an attention item until someone
 * approves or cancels; a `land` step lands the run's task (attempts/task-landing.ts) and fails
 * the run with the refusal's code when it cannot. Every change is saved, then published as a
 * critical `workflow.updated` (the run) on `project:<id>`. Changes to one run are serialized, so
 * a step's exit, an approval, a landing and a cancel never interleave. After a restart, runs that were `running` are
 * `failed` (their terminal died with the daemon) and runs waiting for approval raise their
 * item again.
 */
import type { Logger } from 'pino';
import type { LandStrategy } from '../attempts/land.js';
import type { TaskLanding } from '../attempts/task-landing.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { canonicalRoot } from '../files/rooted-path.js';
import { ApiError } from '../http/api-error.js';
import { findProject } from '../projects/project-store.js';
import type { AttentionCenter } from '../realtime/attention-center.js';
import type { EventBus } from '../realtime/event-bus.js';
import { KeyedMutex } from '../sync/keyed-mutex.js';
import { resolveShell } from '../terminals/shell-command.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import { exitTailBytes, type TerminalExit } from '../terminals/terminal-session.js';
import { substitute } from './command-template.js';
import type { StepKind } from './workflow-schema.js';
import type { RunStep } from './workflow-store.js';
import { activeRuns, findRun, insertRun, type RunRecord, runView, saveRun } from './workflow-store.js';

/** Terminal size of agent steps (a watcher may resize it). */
const stepTerminalSize = { cols: 120, rows: 32 };

interface RunnerDeps {
  db: WorkspacedDb;
  terminals: TerminalManager;
  events: EventBus;
  attention: AttentionCenter;
  logger: Logger;
  /** What a land step runs (attempts/task-landing.ts). */
  landing: Pick<TaskLanding, 'landForRun'>;
}

interface StartRun {
  workflow: string;
  projectId: number;
  taskId: number | null;
  steps: readonly {
    name: string;
    kind: StepKind;
    agents: string[];
    words: string[];
    strategy?: LandStrategy;
  }[];
  variables: Record<string, string>;
  startedBy: string;
}

const notActive = (run: RunRecord, action: string) =>
  new ApiError('WORKFLOW_RUN_NOT_ACTIVE', `run ${run.id} is ${run.status}: nothing to ${action}`, {
    status: run.status,
  });

export class WorkflowRunner {
  private readonly locks = new KeyedMutex();
  private stopping = false;

  constructor(private readonly deps: RunnerDeps) {}

  /** Called once at start-up, before the daemon serves. */
  async recover(): Promise<void> {
    for (const run of await activeRuns(this.deps.db)) {
      if (run.status === 'waiting_approval') {
        this.raiseApproval(run);
        continue;
      }
      const step = run.current_step === null ? undefined : run.steps[run.current_step];
      if (step) Object.assign(step, { status: 'failed', finished_at: new Date().toISOString() });
      await this.finish(run, 'failed', `interrupted: the daemon stopped while step "${step?.name}" ran`);
    }
  }

  /** The daemon stops: terminals are about to be killed, which must not fail their runs now. */
  stop(): void {
    this.stopping = true;
  }

  async start(input: StartRun): Promise<RunRecord> {
    const steps: RunStep[] = input.steps.map((step) => ({
      name: step.name,
      kind: step.kind,
      agents: step.agents,
      argv: step.kind === 'agent' ? substitute(step.words, input.variables) : [],
      status: 'pending',
      terminal_id: null,
      exit_code: null,
      output_tail: null,
      started_at: null,
      finished_at: null,
      decided_by: null,
      ...(step.kind === 'land' ? { strategy: step.strategy ?? 'merge', landed: null, land_error: null } : {}),
    }));
    const run = await insertRun(this.deps.db, {
      workflow: input.workflow,
      project_id: input.projectId,
      task_id: input.taskId,
      status: 'running',
      current_step: 0,
      variables: input.variables,
      steps,
      error: null,
      started_by: input.startedBy,
      finished_at: null,
    });
    return this.locks.run(String(run.id), async () => {
      await this.enterStep(run);
      return run;
    });
  }

  /** A person declares the running agent step done: its terminal is ended, the run moves on. */
  advance(id: number, by: string): Promise<RunRecord> {
    return this.change(id, async (run) => {
      if (run.status === 'waiting_approval')
        throw new ApiError(
          'WORKFLOW_RUN_WAITING_APPROVAL',
          `run ${run.id} waits for an approval: approve it`,
        );
      if (run.status !== 'running') throw notActive(run, 'advance');
      const step = run.steps[run.current_step!]!;
      this.endTerminal(step);
      Object.assign(step, { status: 'completed', finished_at: new Date().toISOString(), decided_by: by });
      run.current_step! += 1;
      await this.enterStep(run);
    });
  }

  approve(id: number, by: string): Promise<RunRecord> {
    return this.change(id, async (run) => {
      if (run.status !== 'waiting_approval')
        throw new ApiError(
          'WORKFLOW_RUN_NOT_WAITING',
          `run ${run.id} is ${run.status}, not waiting_approval`,
          {
            status: run.status,
          },
        );
      const step = run.steps[run.current_step!]!;
      Object.assign(step, { status: 'completed', finished_at: new Date().toISOString(), decided_by: by });
      this.deps.attention.clear(runResource(run), by);
      run.status = 'running';
      run.current_step! += 1;
      await this.enterStep(run);
    });
  }

  cancel(id: number, by: string): Promise<RunRecord> {
    return this.change(id, async (run) => {
      if (run.status !== 'running' && run.status !== 'waiting_approval') throw notActive(run, 'cancel');
      const step = run.steps[run.current_step!]!;
      this.endTerminal(step);
      Object.assign(step, { status: 'cancelled', finished_at: new Date().toISOString(), decided_by: by });
      this.deps.attention.clear(runResource(run), by);
      await this.finish(run, 'cancelled', null);
    });
  }

  private async change(id: number, work: (run: RunRecord) => Promise<void>): Promise<RunRecord> {
    return this.locks.run(String(id), async () => {
      const run = await findRun(this.deps.db, id);
      if (!run) throw new ApiError('NOT_FOUND', 'workflow run not found');
      await work(run);
      return run;
    });
  }

  /** Starts `run.steps[run.current_step]`, or completes the run after the last one. */
  private async enterStep(run: RunRecord): Promise<void> {
    const index = run.current_step!;
    const step = run.steps[index];
    if (!step) return this.finish(run, 'completed', null);
    step.started_at = new Date().toISOString();
    if (step.kind === 'approval') {
      step.status = 'waiting_approval';
      run.status = 'waiting_approval';
      await this.save(run);
      this.raiseApproval(run);
      return;
    }
    if (step.kind === 'land') return this.land(run, step);
    const project = await findProject(this.deps.db, run.project_id);
    let cwd: string;
    let program: string;
    try {
      if (!project) throw new Error('the project is gone');
      cwd = await canonicalRoot(project.path);
      program = await resolveShell(step.argv[0]);
    } catch (error) {
      Object.assign(step, { status: 'failed', finished_at: new Date().toISOString() });
      const reason =
        error instanceof ApiError
          ? `${step.argv[0]} is not a program on the daemon's PATH`
          : 'the project folder is missing';
      return this.finish(run, 'failed', `step "${step.name}": ${reason}`);
    }
    try {
      const session = this.deps.terminals.create({
        projectId: run.project_id,
        createdBy: run.started_by,
        shell: program,
        args: step.argv.slice(1),
        cwd,
        env: { WORKSPACED_WORKFLOW: run.workflow, WORKSPACED_WORKFLOW_RUN: String(run.id) },
        ...stepTerminalSize,
      });
      Object.assign(step, { status: 'running', terminal_id: session.info.id });
      await this.save(run);
      session.onExit((exit) => {
        const output = session.recentOutput(exitTailBytes);
        void this.locks
          .run(String(run.id), () => this.stepExited(run.id, index, session.info.id, exit, output))
          .catch((error: unknown) =>
            this.deps.logger.error({ err: error, run: run.id }, 'workflow step exit failed'),
          );
      });
    } catch (error) {
      this.deps.logger.warn({ err: error, run: run.id }, 'workflow step could not start');
      Object.assign(step, { status: 'failed', finished_at: new Date().toISOString() });
      await this.finish(run, 'failed', `step "${step.name}" could not start a terminal`);
    }
  }

  /**
   * Lands the run's task as its starter (who must still hold the right to). A refusal (conflict,
   * dirty work tree, a permission withdrawn...) fails the run with the error's code; the land code
   * has then changed nothing in the repository.
   */
  private async land(run: RunRecord, step: RunStep): Promise<void> {
    step.status = 'running';
    await this.save(run);
    try {
      step.landed = await this.deps.landing.landForRun({ ...run, strategy: step.strategy ?? 'merge' });
    } catch (error) {
      if (!(error instanceof ApiError))
        this.deps.logger.error({ err: error, run: run.id }, 'workflow land step failed');
      const { code, message, details } =
        error instanceof ApiError ? error : { code: 'INTERNAL', message: 'the landing failed', details: {} };
      Object.assign(step, {
        status: 'failed',
        finished_at: new Date().toISOString(),
        land_error: { code, message, ...details },
      });
      return this.finish(run, 'failed', `step "${step.name}": ${code}: ${message}`);
    }
    Object.assign(step, { status: 'completed', finished_at: new Date().toISOString() });
    run.current_step! += 1;
    return this.enterStep(run);
  }

  private async stepExited(
    id: number,
    index: number,
    terminalId: number,
    exit: TerminalExit,
    output: string,
  ): Promise<void> {
    if (this.stopping) return;
    const run = await findRun(this.deps.db, id);
    const step = run?.steps[index];
    if (!run || !step) return;
    step.output_tail ??= output;
    // Advanced or cancelled meanwhile: the step's outcome is already decided.
    if (run.status !== 'running' || run.current_step !== index || step.terminal_id !== terminalId) {
      await this.saveQuietly(run);
      return;
    }
    Object.assign(step, { exit_code: exit.exitCode, finished_at: new Date().toISOString() });
    if (exit.exitCode === 0 && !exit.signal) {
      step.status = 'completed';
      run.current_step = index + 1;
      return this.enterStep(run);
    }
    step.status = 'failed';
    const how = exit.signal ? `was killed by signal ${exit.signal}` : `exited with code ${exit.exitCode}`;
    await this.finish(run, 'failed', `step "${step.name}" ${how}`);
  }

  private endTerminal(step: RunStep): void {
    const session =
      step.status === 'running' && step.terminal_id !== null
        ? this.deps.terminals.get(step.terminal_id)
        : undefined;
    if (session) void this.deps.terminals.terminate(session);
  }

  private async finish(run: RunRecord, status: 'completed' | 'failed' | 'cancelled', error: string | null) {
    run.status = status;
    run.error = error;
    run.finished_at = Date.now();
    run.current_step = null;
    await this.save(run);
    if (status === 'failed')
      this.deps.attention.raise({
        kind: 'workflow.failed',
        projectId: run.project_id,
        resource: runResource(run),
        summary: `workflow "${run.workflow}" failed: ${error}`.slice(0, 200),
      });
  }

  private raiseApproval(run: RunRecord): void {
    const step = run.steps[run.current_step!]!;
    this.deps.attention.raise({
      kind: 'workflow.approval',
      projectId: run.project_id,
      resource: runResource(run),
      summary: `workflow "${run.workflow}" waits for approval of "${step.name}"`.slice(0, 200),
    });
  }

  private async save(run: RunRecord): Promise<void> {
    await saveRun(this.deps.db, run);
    this.deps.events.publish(`project:${run.project_id}`, 'workflow.updated', runView(run), true);
  }

  /** Stores the output of a step whose outcome was already published. */
  private async saveQuietly(run: RunRecord): Promise<void> {
    await saveRun(this.deps.db, run);
  }
}

/** One attention resource per run: approval and failure items replace each other. */
const runResource = (run: Pick<RunRecord, 'id'>) => `workflow-run:${run.id}`;
