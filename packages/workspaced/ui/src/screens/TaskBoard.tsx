/**
 * The task board: one column per state. A card moves by drag and drop or, for keyboard and touch
 * users, by its "Move to" select and button. A move sends the version the board last saw; on 409
 * the board shows who won and takes the task as it now is from the answer. "Open worktree" creates
 * (or reuses) the task's git worktree and shows its folder and branch, with a button that opens
 * a terminal in it (on the Terminals tab).
 */

import { errorText, navigate, useLoad } from '@suite/web-ui';
import { type DragEvent, type FormEvent, useState } from 'react';
import { ApiFailure, api } from '../api.js';
import { useEventStream } from '../event-stream.js';
import { type Task, type TaskState, taskStates } from '../types.js';
import './git-panel.css';
import { TaskView } from './TaskView.js';

/** `POST /tasks/{id}/worktree`'s answer. */
interface Worktree {
  path: string;
  branch: string;
  created: boolean;
}

const stateLabels: Record<TaskState, string> = {
  backlog: 'Backlog',
  todo: 'To do',
  running: 'Running',
  needs_input: 'Needs input',
  review: 'Review',
  done: 'Done',
  failed: 'Failed',
};

export function TaskBoard({ projectId }: { projectId: number }) {
  const loaded = useLoad(() => api<{ tasks: Task[] }>('GET', `/projects/${projectId}/tasks`), [projectId]);
  const [overrides, setOverrides] = useState<Record<number, Task>>({});
  const [message, setMessage] = useState<string>();
  const [title, setTitle] = useState('');
  const [openId, setOpenId] = useState<number>();
  const tasks = (loaded.data?.tasks ?? []).map((task) => overrides[task.id] ?? task);
  const opened = tasks.find((task) => task.id === openId);

  // An agent's attempt moves its task (running, review, failed): the board follows the daemon's
  // task.updated events, keeping the newest version of each task.
  useEventStream(
    [`project:${projectId}`],
    (frame) => {
      if (frame.type !== 'task.updated') return;
      const changed = frame.data as unknown as Task;
      setOverrides((all) => {
        const known = all[changed.id] ?? loaded.data?.tasks.find((task) => task.id === changed.id);
        return known && known.version > changed.version ? all : { ...all, [changed.id]: changed };
      });
    },
    () => loaded.reload(),
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
        <button type="submit">Add task</button>
      </form>
      {(message ?? loaded.error) && (
        <p role="alert" className="error">
          {message ?? loaded.error}
        </p>
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
            <h2>{stateLabels[state]}</h2>
            {tasks
              .filter((task) => task.state === state)
              .map((task) => (
                <TaskCard
                  key={task.id}
                  task={task}
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
  projectId,
  onMove,
  onOpen,
  onChanged,
}: {
  task: Task;
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
