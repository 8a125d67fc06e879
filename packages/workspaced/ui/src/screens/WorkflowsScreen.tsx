/**
 * Workflows: the definitions, a start form (project and variables), and the newest run with its
 * steps and the Approve / Advance / Cancel buttons. An active run is re-read every 2 s (run
 * changes are not on the event socket for every stage yet).
 */
import { type FormEvent, useEffect, useState } from 'react';
import { api, messageOf } from '../api.js';
import type { Project, Workflow, WorkflowRun } from '../types.js';
import { useLoad } from '../use-load.js';

const refreshMs = 2000;
const active = (run: WorkflowRun | undefined) =>
  run?.status === 'running' || run?.status === 'waiting_approval';

export function WorkflowsScreen() {
  const workflows = useLoad(() => api<{ workflows: Workflow[] }>('GET', '/workflows'), []);
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [run, setRun] = useState<WorkflowRun>();
  const [message, setMessage] = useState<string>();

  useEffect(() => {
    api<WorkflowRun>('GET', '/workflow-runs/latest').then(setRun, () => undefined);
  }, []);
  useEffect(() => {
    if (!run || !active(run)) return;
    const timer = setTimeout(
      () => api<WorkflowRun>('GET', `/workflow-runs/${run.id}`).then(setRun, (e) => setMessage(messageOf(e))),
      refreshMs,
    );
    return () => clearTimeout(timer);
  }, [run]);

  const act = async (action: 'approve' | 'advance' | 'cancel') => {
    if (!run) return;
    setMessage(undefined);
    try {
      setRun(await api<WorkflowRun>('POST', `/workflow-runs/${run.id}/${action}`));
    } catch (failure) {
      setMessage(messageOf(failure));
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
      props.onError(failure instanceof SyntaxError ? 'variables must be a JSON object' : messageOf(failure));
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
