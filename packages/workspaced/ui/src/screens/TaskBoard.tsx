/**
 * The task board: one column per state. A card shows the task's state, its latest agent (profile
 * and what the agent is doing: running, waiting for input, ended) and that agent's branch. A card moves by drag and drop or, for keyboard and touch
 * users, by its "Move to" select and button. A move sends the version the board last saw; on 409
 * the board shows who won and takes the task as it now is from the answer. "Open worktree" creates
 * (or reuses) the task's git worktree and shows its folder and branch, with a button that opens
 * a terminal in it (on the Terminals tab).
 */

import { errorText, navigate, useLoad } from '@suite/web-ui';
import { Badge, Button, EmptyState, Skeleton, type Tone, useToast } from '@suite/web-ui/kit';
import { Bot, GitBranch, ListTodo } from 'lucide-react';
import { type DragEvent, type FormEvent, useEffect, useState } from 'react';
import { ApiFailure, api } from '../api.js';
import { useEventStream } from '../event-stream.js';
import { type Attempt, type Task, type TaskState, taskStates } from '../types.js';
import './git-panel.css';
import { TaskView } from './TaskView.js';

/** `POST /tasks/{id}/worktree`'s answer. */
interface Worktree {
  path: string;
  branch: string;
  created: boolean;
}

export const stateLabels: Record<TaskState, string> = {
  backlog: 'Backlog',
  todo: 'To do',
  running: 'Running',
  needs_input: 'Needs input',
  review: 'Review',
  done: 'Done',
  failed: 'Failed',
};
const stateTones: Record<TaskState, Tone> = {
  backlog: 'neutral',
  todo: 'neutral',
  running: 'info',
  needs_input: 'warn',
  review: 'info',
  done: 'ok',
  failed: 'danger',
};

/** A task's latest agent at a glance: its profile, its branch and what it is doing. */
interface CardAgent {
  profile: string;
  branch: string;
  activity: 'running' | 'waiting for input' | 'ended';
}

/** An agent in one of these detected states waits for a person. */
const waitingStates = new Set(['waiting_for_input', 'needs_approval']);

/**
 * What the cards' agents are read from: each task's latest attempt (`GET /tasks/{id}/attempts`,
 * one request a task: the API has no project-wide list) and the terminals whose detected agent
 * waits for a person (`GET /agents`). Loaded once; events then update it (`withEvent`).
 */
interface AgentFacts {
  latest: Map<number, Attempt>;
  waiting: Set<number>;
}

async function loadAgentFacts(taskIds: readonly number[]): Promise<AgentFacts> {
  const [attempts, detected] = await Promise.all([
    Promise.all(
      taskIds.map((id) =>
        api<{ attempts: Attempt[] }>('GET', `/tasks/${id}/attempts`).then(
          (answer) => answer.attempts[0], // newest first
          () => undefined, // no agent.view in this project: the card shows no agent
        ),
      ),
    ),
    api<{ agents: { terminal_id: number; state: string }[] }>('GET', '/agents').then(
      (answer) => answer.agents,
      () => [],
    ),
  ]);
  const latest = new Map<number, Attempt>();
  for (const attempt of attempts) if (attempt) latest.set(attempt.task_id, attempt);
  const waiting = new Set(
    detected.filter((agent) => waitingStates.has(agent.state)).map((agent) => agent.terminal_id),
  );
  return { latest, waiting };
}

/** The facts after an `attempt.updated` or `agent.state` event, which carry what changed. */
function withEvent(facts: AgentFacts, type: string, data: Record<string, unknown>): AgentFacts {
  if (type === 'attempt.updated') {
    const attempt = data as unknown as Attempt;
    const known = facts.latest.get(attempt.task_id);
    if (known && known.id > attempt.id) return facts;
    return { ...facts, latest: new Map(facts.latest).set(attempt.task_id, attempt) };
  }
  const terminalId = data.terminal_id as number;
  const waiting = new Set(facts.waiting);
  if (waitingStates.has(data.state as string)) waiting.add(terminalId);
  else waiting.delete(terminalId);
  return { ...facts, waiting };
}

function cardAgent(facts: AgentFacts | undefined, taskId: number): CardAgent | undefined {
  const attempt = facts?.latest.get(taskId);
  if (!attempt) return undefined;
  const activity =
    attempt.state !== 'running'
      ? 'ended'
      : facts!.waiting.has(attempt.terminal_id)
        ? 'waiting for input'
        : 'running';
  return { profile: attempt.profile, branch: attempt.branch, activity };
}

const activityTones: Record<CardAgent['activity'], Tone> = {
  running: 'info',
  'waiting for input': 'warn',
  ended: 'neutral',
};

export function TaskBoard({ projectId }: { projectId: number }) {
  const loaded = useLoad(() => api<{ tasks: Task[] }>('GET', `/projects/${projectId}/tasks`), [projectId]);
  const [overrides, setOverrides] = useState<Record<number, Task>>({});
  const [message, setMessage] = useState<string>();
  const toast = useToast();
  const [title, setTitle] = useState('');
  const [openId, setOpenId] = useState<number>();
  const tasks = (loaded.data?.tasks ?? []).map((task) => overrides[task.id] ?? task);
  const opened = tasks.find((task) => task.id === openId);
  const taskIds = (loaded.data?.tasks ?? []).map((task) => task.id);
  const agents = useLoad(() => loadAgentFacts(taskIds), [taskIds.join(',')]);
  const [agentFacts, setAgentFacts] = useState<AgentFacts>();
  // A fresh load replaces what events changed since the last one.
  useEffect(() => setAgentFacts(agents.data), [agents.data]);

  // An agent's attempt moves its task (running, review, failed): the board follows the daemon's
  // task.updated events, keeping the newest version of each task.
  useEventStream(
    [`project:${projectId}`],
    (frame) => {
      if (frame.type === 'agent.state' || frame.type === 'attempt.updated') {
        setAgentFacts((facts) => facts && withEvent(facts, frame.type, frame.data));
        return;
      }
      if (frame.type !== 'task.updated') return;
      const changed = frame.data as unknown as Task;
      setOverrides((all) => {
        const known = all[changed.id] ?? loaded.data?.tasks.find((task) => task.id === changed.id);
        return known && known.version > changed.version ? all : { ...all, [changed.id]: changed };
      });
    },
    () => {
      loaded.reload();
      agents.reload();
    },
  );

  const move = async (task: Task, state: TaskState) => {
    if (task.state === state) return;
    setMessage(undefined);
    try {
      const moved = await api<Task>('POST', `/tasks/${task.id}/move`, { state, version: task.version });
      setOverrides((current) => ({ ...current, [moved.id]: moved }));
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.status === 409 && failure.body.task) {
        const current = failure.body.task as Task;
        setOverrides((all) => ({ ...all, [current.id]: current }));
        setMessage(
          `"${current.title}" was changed by someone else meanwhile; it is now in ${stateLabels[current.state]}. Move it again if you still want to.`,
        );
      } else setMessage(errorText(failure));
    }
  };
  const create = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api('POST', `/projects/${projectId}/tasks`, { title });
      toast.notify({ title: `Added "${title}" to To do`, tone: 'ok' });
      setTitle('');
      setOverrides({});
      loaded.reload();
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };
  const drop = (event: DragEvent, state: TaskState) => {
    event.preventDefault();
    const task = tasks.find((candidate) => String(candidate.id) === event.dataTransfer.getData('text/plain'));
    if (task) void move(task, state);
  };

  return (
    <div>
      <form onSubmit={create} className="inline-form">
        <label>
          New task
          <input value={title} onChange={(e) => setTitle(e.target.value)} maxLength={200} required />
        </label>
        <Button type="submit" variant="primary">
          Add task
        </Button>
      </form>
      {(message ?? loaded.error) && (
        <p role="alert" className="error">
          {message ?? loaded.error}
        </p>
      )}
      {!loaded.data && !loaded.error && <Skeleton lines={4} label="Loading the tasks" />}
      {loaded.data?.tasks.length === 0 && (
        <EmptyState icon={<ListTodo size={28} />} title="No task yet">
          <p>Write what needs doing under "New task" and add it: it starts in To do.</p>
        </EmptyState>
      )}
      <div className="board">
        {taskStates.map((state) => (
          <section
            key={state}
            className="column"
            aria-label={stateLabels[state]}
            data-state={state}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => drop(event, state)}
          >
            <h2>
              {stateLabels[state]}
              <span className="muted">{tasks.filter((task) => task.state === state).length}</span>
            </h2>
            {tasks
              .filter((task) => task.state === state)
              .map((task) => (
                <TaskCard
                  key={task.id}
                  task={task}
                  agent={cardAgent(agentFacts, task.id)}
                  projectId={projectId}
                  onMove={(target) => move(task, target)}
                  onOpen={() => setOpenId(task.id)}
                  onChanged={(changed) => setOverrides((all) => ({ ...all, [changed.id]: changed }))}
                />
              ))}
          </section>
        ))}
      </div>
      {opened && <TaskView key={opened.id} task={opened} onClose={() => setOpenId(undefined)} />}
    </div>
  );
}

function TaskCard({
  task,
  agent,
  projectId,
  onMove,
  onOpen,
  onChanged,
}: {
  task: Task;
  agent: CardAgent | undefined;
  projectId: number;
  onMove: (state: TaskState) => void;
  onOpen: () => void;
  onChanged: (task: Task) => void;
}) {
  const [target, setTarget] = useState<TaskState>(task.state);
  const [worktree, setWorktree] = useState<Worktree>();
  const [worktreeError, setWorktreeError] = useState<string>();
  const openWorktree = async () => {
    setWorktreeError(undefined);
    try {
      const answer = await api<Worktree & { task: Task }>('POST', `/tasks/${task.id}/worktree`);
      setWorktree(answer);
      onChanged(answer.task);
    } catch (failure) {
      setWorktreeError(errorText(failure));
    }
  };
  const openTerminal = async () => {
    setWorktreeError(undefined);
    try {
      await api('POST', '/terminals', { project_id: projectId, task_id: task.id });
      navigate(`/projects/${projectId}/terminals`);
    } catch (failure) {
      setWorktreeError(errorText(failure));
    }
  };
  // The worktree controls sit under the card, not in it: the card is the drag handle, and a
  // taller card would put its form controls where a drag starts.
  return (
    <div className="card-slot">
      <article
        className="card"
        draggable
        data-task-id={task.id}
        onDragStart={(event) => event.dataTransfer.setData('text/plain', String(task.id))}
      >
        <h3>{task.title}</h3>
        <p className="card-facts">
          <Badge tone={stateTones[task.state]}>{stateLabels[task.state]}</Badge>
          {agent ? (
            <span className="card-agent">
              <Bot aria-hidden="true" size={14} />
              {agent.profile} <Badge tone={activityTones[agent.activity]}>{agent.activity}</Badge>
            </span>
          ) : (
            <span>no agent yet</span>
          )}
        </p>
        {agent && (
          <p className="card-facts">
            <GitBranch aria-hidden="true" size={14} />
            <span className="visually-hidden">branch</span>
            <code>{agent.branch}</code>
          </p>
        )}
        <div className="card-move">
          <label>
            <span className="visually-hidden">Move "{task.title}" to</span>
            <select value={target} onChange={(e) => setTarget(e.target.value as TaskState)}>
              {taskStates.map((state) => (
                <option key={state} value={state}>
                  {stateLabels[state]}
                </option>
              ))}
            </select>
          </label>
          <button type="button" onClick={() => onMove(target)} disabled={target === task.state}>
            Move
          </button>
        </div>
      </article>
      <div className="card-worktree">
        <button type="button" onClick={onOpen} aria-label={`Agent and review of "${task.title}"`}>
          Agent and review
        </button>
        <button type="button" onClick={openWorktree} aria-label={`Open worktree of "${task.title}"`}>
          Open worktree
        </button>
        {worktree && (
          <>
            <span>
              Worktree {worktree.created ? 'created' : 'ready'} on branch <code>{worktree.branch}</code>
            </span>
            <code data-testid="worktree-path">{worktree.path}</code>
            <button type="button" onClick={openTerminal}>
              Open a terminal in it
            </button>
          </>
        )}
        {worktreeError && (
          <p role="alert" className="error">
            {worktreeError}
          </p>
        )}
      </div>
    </div>
  );
}
