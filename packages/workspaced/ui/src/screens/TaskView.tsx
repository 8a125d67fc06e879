/**
 * One task opened from its card: start an agent on it (a profile from `GET /agent-profiles`, the
 * installed ones first to choose, and a prompt that defaults to the task's title and
 * description), the newest attempt's state and live terminal (once it ended, the end of its
 * output the daemon kept, as text), a follow-up box and Stop; once the agent has finished, the review (diff, comments, land, pull request). Attempt changes arrive on
 * the event socket (`attempt.updated` on `project:<id>`).
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Skeleton, useToast } from '@suite/web-ui/kit';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import { terminalText } from '../../../src/terminals/terminal-text.js';
import { api } from '../api.js';
import { useEventStream } from '../event-stream.js';
import type { AgentProfile, Attempt, Task } from '../types.js';
import { ReviewPanel } from './ReviewPanel.js';
import './task-view.css';

// xterm.js is most of the bundle: loaded only when a terminal is shown.
const TerminalView = lazy(() =>
  import('./TerminalView.js').then((module) => ({ default: module.TerminalView })),
);

const pollMs = 2000;

const stateLabels: Record<Attempt['state'], string> = {
  running: 'running',
  completed: 'finished (exit 0)',
  failed: 'failed',
  stopped: 'stopped',
};

export function TaskView({ task, onClose }: { task: Task; onClose: () => void }) {
  const attempts = useLoad(
    () => api<{ attempts: Attempt[] }>('GET', `/tasks/${task.id}/attempts`),
    [task.id],
  );
  const [latest, setLatest] = useState<Attempt>();
  const [error, setError] = useState<string>();
  const toast = useToast();
  const attempt = latest ?? attempts.data?.attempts[0];
  const box = useRef<HTMLElement>(null);
  // Opened under the board: on a phone that is several screens down.
  useEffect(() => {
    box.current?.scrollIntoView({ block: 'start' });
  }, []);

  useEventStream(
    [`project:${task.project_id}`],
    (frame) => {
      const changed = frame.data as unknown as Attempt;
      if (frame.type === 'attempt.updated' && changed.task_id === task.id)
        setLatest((current) => (current && current.id > changed.id ? current : changed));
    },
    () => attempts.reload(),
  );
  // An event may overtake the answer of the POST that caused it (the socket and HTTP are not
  // ordered), so a running attempt is also read again every few seconds until it ends.
  const runningId = attempt?.state === 'running' ? attempt.id : undefined;
  useEffect(() => {
    if (runningId === undefined) return;
    const timer = setInterval(() => {
      api<Attempt>('GET', `/attempts/${runningId}`).then(setLatest, () => {});
    }, pollMs);
    return () => clearInterval(timer);
  }, [runningId]);

  /** Sends one request about the attempt; `done` is the toast for what it did, if not in view. */
  const act = async (send: () => Promise<Attempt>, done?: string) => {
    setError(undefined);
    try {
      setLatest(await send());
      if (done) toast.notify({ title: done, tone: 'ok' });
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <section ref={box} className="task-view" aria-label={`Task "${task.title}"`}>
      <header className="task-view-head">
        <h2>{task.title}</h2>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </header>
      <StartAgent
        task={task}
        again={attempt !== undefined}
        onStart={(profile, prompt) =>
          act(() => api('POST', `/tasks/${task.id}/attempts`, { profile, prompt }))
        }
      />
      {(error ?? attempts.error) && (
        <p role="alert" className="error">
          {error ?? attempts.error}
        </p>
      )}
      {attempt && (
        <AttemptView
          attempt={attempt}
          projectId={task.project_id}
          onFollowUp={(prompt) =>
            act(() => api('POST', `/attempts/${attempt.id}/follow-up`, { prompt }), 'Sent to the agent')
          }
          onStop={() => act(() => api('POST', `/attempts/${attempt.id}/stop`), 'Stopped the agent')}
        />
      )}
      {attempt && attempt.state !== 'running' && (
        <ReviewPanel
          task={task}
          attempt={attempt}
          onFollowUp={(prompt) => act(() => api('POST', `/attempts/${attempt.id}/follow-up`, { prompt }))}
        />
      )}
    </section>
  );
}

function StartAgent({
  task,
  again,
  onStart,
}: {
  task: Task;
  again: boolean;
  onStart: (profile: string, prompt: string) => Promise<void>;
}) {
  const profiles = useLoad(() => api<{ profiles: AgentProfile[] }>('GET', '/agent-profiles'), []);
  const installed = profiles.data?.profiles.filter((profile) => profile.installed) ?? [];
  const missing = profiles.data?.profiles.filter((profile) => !profile.installed) ?? [];
  const [chosen, setChosen] = useState<string>();
  const [prompt, setPrompt] = useState(
    task.description ? `${task.title}\n\n${task.description}` : task.title,
  );
  const [busy, setBusy] = useState(false);
  const profile = chosen ?? installed[0]?.name ?? '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    await onStart(profile, prompt);
    setBusy(false);
  };
  if (profiles.error) return <p className="error">{profiles.error}</p>;
  return (
    <form className="start-agent" onSubmit={submit}>
      <label>
        Agent
        <select value={profile} onChange={(event) => setChosen(event.target.value)}>
          {installed.map((item) => (
            <option key={item.name} value={item.name}>
              {item.name}
            </option>
          ))}
          {missing.length > 0 && (
            <optgroup label="Not installed on the daemon's PATH">
              {missing.map((item) => (
                <option key={item.name} value={item.name} disabled>
                  {item.name} (not installed)
                </option>
              ))}
            </optgroup>
          )}
        </select>
      </label>
      <label>
        Prompt
        <textarea value={prompt} onChange={(event) => setPrompt(event.target.value)} rows={3} required />
      </label>
      <button type="submit" disabled={busy || profile === ''}>
        {again ? 'Start another attempt' : 'Start agent'}
      </button>
      {profiles.data && installed.length === 0 && (
        <p className="muted">No agent is installed on the daemon's PATH.</p>
      )}
    </form>
  );
}

/**
 * An ended agent: its terminal is gone from the daemon (nothing to connect to), so the view shows
 * the end of its output that the daemon kept on the attempt, as text.
 */
function EndedOutput({ attempt }: { attempt: Attempt & { output_tail?: string | null } }) {
  const exit =
    attempt.state !== 'completed' && attempt.exit_code !== null ? ` (exit ${attempt.exit_code})` : '';
  const output = attempt.output_tail ? terminalText(attempt.output_tail) : '';
  return (
    <>
      <p className="muted" data-testid="terminal-ended">
        The agent has ended: {stateLabels[attempt.state]}
        {exit}.{' '}
        {output === ''
          ? 'The daemon kept none of its output (it ended with the daemon, or wrote nothing).'
          : 'The end of its output:'}
      </p>
      {output !== '' && (
        <section aria-label="Output of the agent">
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll box must be reachable without a mouse */}
          <pre className="attempt-output" tabIndex={0}>
            {output}
          </pre>
        </section>
      )}
    </>
  );
}

function AttemptView({
  attempt,
  projectId,
  onFollowUp,
  onStop,
}: {
  attempt: Attempt;
  projectId: number;
  onFollowUp: (prompt: string) => Promise<void>;
  onStop: () => Promise<void>;
}) {
  const [prompt, setPrompt] = useState('');
  const followUp = async (event: FormEvent) => {
    event.preventDefault();
    await onFollowUp(prompt);
    setPrompt('');
  };
  const terminal = {
    id: attempt.terminal_id,
    project_id: projectId,
    shell: attempt.profile,
    cols: 120,
    rows: 32,
  };
  return (
    <section className="attempt" aria-label={`Attempt ${attempt.id}`}>
      <p className="attempt-state">
        Attempt #{attempt.id} with <strong>{attempt.profile}</strong> on <code>{attempt.branch}</code>:{' '}
        <span data-testid="attempt-state">{stateLabels[attempt.state]}</span>
        {attempt.state === 'failed' && attempt.exit_code !== null && ` (exit ${attempt.exit_code})`}
        {attempt.state === 'running' && (
          <button type="button" onClick={onStop}>
            Stop
          </button>
        )}
      </p>
      {attempt.state === 'running' ? (
        <Suspense fallback={<Skeleton lines={3} label="Loading the terminal" />}>
          <TerminalView key={attempt.terminal_id} terminal={terminal} />
        </Suspense>
      ) : (
        <EndedOutput attempt={attempt} />
      )}
      <form className="follow-up" onSubmit={followUp}>
        <label>
          Follow-up
          <textarea value={prompt} onChange={(event) => setPrompt(event.target.value)} rows={2} required />
        </label>
        <button type="submit">
          {attempt.state === 'running' ? 'Send to the agent' : 'Run again with it'}
        </button>
      </form>
    </section>
  );
}
