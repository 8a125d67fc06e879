/**
 * A project at a glance, above its tabs: its folder, the current branch and whether the work tree
 * is clean, how many tasks are in each state, the agents running in its terminals and its latest
 * workflow run. Read from the routes the tabs use (git status, tasks, agents, latest run); a part
 * the user's role may not read, or that does not apply (not a git repository, no run yet), says
 * so instead of failing the whole overview. It follows the project's event stream.
 */
import { useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { api } from '../api.js';
import { useEventStream } from '../event-stream.js';
import { type Project, type Task, taskStates, type WorkflowRun } from '../types.js';
import { stateLabels } from './TaskBoard.js';

interface Overview {
  git: { branch: string | null; changed: number } | null;
  tasks: Task[] | null;
  agents: { state: string }[] | null;
  run: WorkflowRun | null;
}

/** Null for a part that could not be read: a refusal or an absence, never the whole overview. */
const orNull = <T,>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);

async function loadOverview(projectId: number): Promise<Overview> {
  const [status, tasks, agents, run] = await Promise.all([
    orNull(
      api<{ branch: { head: string | null }; entries: unknown[] }>(
        'GET',
        `/projects/${projectId}/git/status`,
      ),
    ),
    orNull(api<{ tasks: Task[] }>('GET', `/projects/${projectId}/tasks`)),
    orNull(api<{ agents: { project_id: number; state: string }[] }>('GET', '/agents')),
    orNull(api<WorkflowRun>('GET', `/workflow-runs/latest?project_id=${projectId}`)),
  ]);
  return {
    git: status && { branch: status.branch.head, changed: status.entries.length },
    tasks: tasks?.tasks ?? null,
    agents: agents?.agents.filter((agent) => agent.project_id === projectId) ?? null,
    run,
  };
}

export function ProjectOverview({ project }: { project: Project }) {
  const overview = useLoad(() => loadOverview(project.id), [project.id]);
  useEventStream(
    [`project:${project.id}`],
    (frame) => /^(task|attempt|agent|workflow|terminal)\./.test(frame.type) && overview.reload(),
    () => overview.reload(),
  );
  const data = overview.data;
  return (
    <section className="overview" aria-label="Project overview">
      {!data ? (
        <Skeleton lines={2} label="Loading the overview" />
      ) : (
        <dl>
          <div>
            <dt>Folder</dt>
            <dd>
              <code>{project.path}</code>
            </dd>
          </div>
          <div>
            <dt>Branch</dt>
            <dd>
              {data.git ? (
                <>
                  <code>{data.git.branch ?? '(detached)'}</code>{' '}
                  {data.git.changed === 0 ? (
                    <Badge tone="ok">clean</Badge>
                  ) : (
                    <Badge tone="warn">
                      {data.git.changed} changed {data.git.changed === 1 ? 'file' : 'files'}
                    </Badge>
                  )}
                </>
              ) : (
                <span className="muted">no git status (not a repository, or not allowed)</span>
              )}
            </dd>
          </div>
          <div>
            <dt>Tasks</dt>
            <dd>{data.tasks ? taskCounts(data.tasks) : <span className="muted">not allowed</span>}</dd>
          </div>
          <div>
            <dt>Agents</dt>
            <dd>{data.agents ? agentCounts(data.agents) : <span className="muted">not allowed</span>}</dd>
          </div>
          <div>
            <dt>Latest workflow run</dt>
            <dd>
              {data.run ? (
                <>
                  {data.run.workflow} <Badge>{data.run.status.replaceAll('_', ' ')}</Badge>{' '}
                  <span className="muted">{new Date(data.run.updated_at).toLocaleString()}</span>
                </>
              ) : (
                <span className="muted">none yet</span>
              )}
            </dd>
          </div>
        </dl>
      )}
    </section>
  );
}

/** "2 To do, 1 Running": the states that have tasks, in the board's order. */
function taskCounts(tasks: Task[]): string {
  const counts = taskStates
    .map((state) => [stateLabels[state], tasks.filter((task) => task.state === state).length] as const)
    .filter(([, count]) => count > 0)
    .map(([label, count]) => `${count} ${label}`);
  return counts.length > 0 ? counts.join(', ') : 'none yet';
}

function agentCounts(agents: { state: string }[]): string {
  if (agents.length === 0) return 'none running';
  const waiting = agents.filter(
    (agent) => agent.state === 'waiting_for_input' || agent.state === 'needs_approval',
  ).length;
  return `${agents.length} running${waiting > 0 ? `, ${waiting} waiting for input` : ''}`;
}
