/**
 * Workflows: the definitions, a start form (project and variables), and the newest run with its
 * steps, the terminal of its running agent step (watched live) and the Approve / Advance / Cancel
 * buttons. The run follows the `workflow.updated` events of every visible project (subscribed
 * before anything is started here, so no change of a run started from this screen is missed).
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Skeleton } from '@suite/web-ui/kit';
import { type FormEvent, lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { api } from '../api.js';
import { type EventFrame, useEventStream } from '../event-stream.js';
import type { Project, Terminal, Workflow, WorkflowRun } from '../types.js';

// xterm.js is most of the bundle: loaded only when a step's terminal is shown.
const TerminalView = lazy(() =>
  import('./TerminalView.js').then((module) => ({ default: module.TerminalView })),
);

const active = (run: WorkflowRun | undefined) =>
  run?.status === 'running' || run?.status === 'waiting_approval';

/**
 * The run to show of the one shown and one just read (an answer or an event, which can arrive in
 * either order): a newer run takes the place of an older one, as `latest` would; of two states
 * of one run the later change wins.
 */
function newerRun(shown: WorkflowRun | undefined, read: WorkflowRun): WorkflowRun {
  if (!shown || read.id !== shown.id) return !shown || read.id > shown.id ? read : shown;
  return read.updated_at >= shown.updated_at ? read : shown;
}

export function WorkflowsScreen() {
  const workflows = useLoad(() => api<{ workflows: Workflow[] }>('GET', '/workflows'), []);
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [run, setShownRun] = useState<WorkflowRun>();
  const setRun = useCallback((read: WorkflowRun) => setShownRun((shown) => newerRun(shown, read)), []);
  const [message, setMessage] = useState<string>();

  useEffect(() => {
    api<WorkflowRun>('GET', '/workflow-runs/latest').then(setRun, () => undefined);
  }, [setRun]);
  const streams = (projects.data?.projects ?? []).map((project) => `project:${project.id}`);
  useEventStream(
    streams,
    (frame: EventFrame) => {
      if (frame.type === 'workflow.updated') setRun(frame.data as unknown as WorkflowRun);
    },
    () => {
      const path = run ? `/workflow-runs/${run.id}` : '/workflow-runs/latest';
      api<WorkflowRun>('GET', path).then(setRun, () => undefined);
    },
  );

  const act = async (action: 'approve' | 'advance' | 'cancel') => {
    if (!run) return;
    setMessage(undefined);
    try {
      setRun(await api<WorkflowRun>('POST', `/workflow-runs/${run.id}/${action}`));
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  return (
    <section>
      <h1>Workflows</h1>
      {(message ?? workflows.error) && (
        <p role="alert" className="error">
          {message ?? workflows.error}
        </p>
      )}
      {!workflows.data && !workflows.error && <Skeleton lines={3} label="Loading the workflows" />}
      <ul className="list" aria-label="Workflows">
        {workflows.data?.workflows.map((workflow) => (
          <li key={workflow.name}>
            <StartForm
              workflow={workflow}
              projects={projects.data?.projects ?? []}
              onStarted={setRun}
              onError={setMessage}
            />
          </li>
        ))}
        {workflows.data?.workflows.length === 0 && <li className="muted">No workflow defined yet.</li>}
      </ul>
      {run && (
        <section aria-label="Latest run" className="run">
          <h2>
            Run {run.id} of {run.workflow}: <span data-testid="run-status">{run.status}</span>
          </h2>
          {run.error && <p className="error">{run.error}</p>}
          <ol>
            {run.steps.map((step, index) => (
              <li key={step.name} aria-current={index === run.current_step ? 'step' : undefined}>
                {step.name} ({step.kind}): {step.status}
                {step.output_tail && <pre>{step.output_tail}</pre>}
              </li>
            ))}
          </ol>
          {run.terminal_id !== null && <StepTerminal key={run.terminal_id} terminalId={run.terminal_id} />}
          {run.status === 'waiting_approval' && (
            <button type="button" onClick={() => act('approve')}>
              Approve
            </button>
          )}
          {run.status === 'running' && (
            <button type="button" onClick={() => act('advance')}>
              Advance
            </button>
          )}
          {active(run) && (
            <button type="button" onClick={() => act('cancel')}>
              Cancel run
            </button>
          )}
        </section>
      )}
    </section>
  );
}

/** The running agent step's terminal, watched (and answerable) without leaving the run. */
function StepTerminal({ terminalId }: { terminalId: number }) {
  const terminals = useLoad(() => api<{ terminals: Terminal[] }>('GET', '/terminals'), [terminalId]);
  const terminal = terminals.data?.terminals.find((candidate) => candidate.id === terminalId);
  if (terminals.error) return <p className="error">{terminals.error}</p>;
  if (!terminal) return null;
  return (
    <Suspense fallback={<Skeleton lines={3} label="Loading the terminal" />}>
      <TerminalView terminal={terminal} />
    </Suspense>
  );
}

function StartForm(props: {
  workflow: Workflow;
  projects: Project[];
  onStarted: (run: WorkflowRun) => void;
  onError: (message: string) => void;
}) {
  const { workflow, projects } = props;
  const [projectId, setProjectId] = useState('');
  const [variables, setVariables] = useState('');

  const start = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const parsed = variables.trim() === '' ? {} : (JSON.parse(variables) as unknown);
      const body = { variables: parsed, ...(projectId === '' ? {} : { project_id: Number(projectId) }) };
      props.onStarted(
        await api<WorkflowRun>('POST', `/workflows/${encodeURIComponent(workflow.name)}/start`, body),
      );
    } catch (failure) {
      props.onError(failure instanceof SyntaxError ? 'variables must be a JSON object' : errorText(failure));
    }
  };

  return (
    <form onSubmit={start} className="inline-form" aria-label={`Start ${workflow.name}`}>
      <strong>{workflow.name}</strong>
      <span className="muted">{workflow.steps.map((step) => step.name).join(' → ')}</span>
      <label>
        Project
        <select value={projectId} onChange={(e) => setProjectId(e.target.value)}>
          <option value="">(the only one)</option>
          {projects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Variables (JSON)
        <input value={variables} onChange={(e) => setVariables(e.target.value)} placeholder='{"msg": "hi"}' />
      </label>
      <button type="submit">Start</button>
    </form>
  );
}
