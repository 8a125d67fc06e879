/**
 * Agents: the coding agents running in the live terminals the user may see (`GET /agents`, with
 * their state), the agents the daemon recognizes and where they are installed
 * (`GET /agents/known`), and every live terminal (`GET /terminals`) with its CPU time and memory
 * (`GET /observability/sessions`) and a link to its project's Terminals tab. Re-read when the
 * event socket reports an agent or terminal change in a visible project (`agent.state`,
 * `terminal.*`), and with the Refresh button. Blocked agents also reach the Attention screen.
 */
import { Link, useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { api } from '../api.js';
import { AgentStateBadge } from '../components/AgentStateBadge.js';
import { ErrorLine } from '../components/Notices.js';
import { RefreshHeading } from '../components/RefreshHeading.js';
import { useEventStream } from '../event-stream.js';
import type { Project, Terminal } from '../types.js';
import './operations.css';

interface Agent {
  terminal_id: number;
  project_id: number;
  agent: string;
  detected_by: 'process' | 'output';
  pid: number | null;
  command: string[] | null;
  state: string;
}

interface TerminalUsage {
  terminal_id: number;
  cpu_seconds: number;
  rss_bytes: number;
  processes: { pid: number; name: string }[];
}

interface AgentsView {
  agents: Agent[];
  terminals: (Terminal & { pid?: number; created_at?: string })[];
  usage: Map<number, TerminalUsage>;
  projects: Map<number, string>;
}

async function loadAgents(): Promise<AgentsView> {
  const [agents, terminals, sessions, projects] = await Promise.all([
    api<{ agents: Agent[] }>('GET', '/agents'),
    api<{ terminals: AgentsView['terminals'] }>('GET', '/terminals'),
    api<{ sessions: TerminalUsage[] }>('GET', '/observability/sessions').catch(() => ({ sessions: [] })),
    api<{ projects: Project[] }>('GET', '/projects'),
  ]);
  return {
    agents: agents.agents,
    terminals: terminals.terminals,
    usage: new Map(sessions.sessions.map((session) => [session.terminal_id, session])),
    projects: new Map(projects.projects.map((project) => [project.id, project.name])),
  };
}

/** MiB, or GiB from 1 GiB, with one decimal. */
export function byteSize(bytes: number): string {
  const mib = bytes / 1024 / 1024;
  return mib >= 1024 ? `${(mib / 1024).toFixed(1)} GiB` : `${mib.toFixed(1)} MiB`;
}

export function AgentsScreen() {
  const view = useLoad(loadAgents, []);
  const known = useLoad(
    () => api<{ agents: { name: string; path: string | null }[] }>('GET', '/agents/known'),
    [],
  );
  const { reload } = view;
  const projectIds = view.data ? [...view.data.projects.keys()].join(',') : '';

  // Agents appear, change state and leave on the event socket of each visible project.
  useEventStream(
    projectIds === '' ? [] : projectIds.split(',').map((id) => `project:${id}`),
    (frame) => (frame.type === 'agent.state' || frame.type.startsWith('terminal.')) && reload(),
    reload,
  );

  const data = view.data;
  const projectName = (id: number) => data?.projects.get(id) ?? `project ${id}`;
  const agentOf = (terminalId: number) => data?.agents.find((agent) => agent.terminal_id === terminalId);

  return (
    <section className="ops">
      <RefreshHeading title="Agents" onRefresh={reload} />
      <p className="muted">
        Coding agents (claude, codex, gemini, aider, …) found in the terminals you can see. An agent that
        waits for you is also on the <Link to="/attention">Attention</Link> screen.
      </p>
      <ErrorLine message={view.error} />
      <h2>Running agents</h2>
      {!view.data && !view.error && <Skeleton lines={3} label="Loading the agents" />}
      <ul className="ops-list" aria-label="Agents">
        {data?.agents.map((agent) => (
          <li key={agent.terminal_id} className="ops-item">
            <div className="ops-title">
              <strong className="ops-name">{agent.agent}</strong>
              <span data-testid="agent-state">
                <AgentStateBadge state={agent.state} />
              </span>
            </div>
            <dl className="ops-facts">
              <dt>Project</dt>
              <dd>{projectName(agent.project_id)}</dd>
              <dt>Terminal</dt>
              <dd>
                <Link to={`/projects/${agent.project_id}/terminals`}>{`Terminal ${agent.terminal_id}`}</Link>
              </dd>
              <dt>Found by</dt>
              <dd>{agent.detected_by === 'process' ? `process ${agent.pid}` : 'its output'}</dd>
              {agent.command && (
                <>
                  <dt>Command</dt>
                  <dd className="ops-code">{agent.command.join(' ')}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
        {data?.agents.length === 0 && (
          <li className="muted">No agent is running in a terminal you can see.</li>
        )}
      </ul>
      {known.data && (
        <>
          <h2>Known agents</h2>
          <ul className="ops-known" aria-label="Known agents">
            {known.data.agents.map((agent) => (
              <li key={agent.name} className={agent.path ? undefined : 'muted'}>
                <strong>{agent.name}</strong>{' '}
                {agent.path ? (
                  <span className="ops-code">{agent.path}</span>
                ) : (
                  <span>not on the daemon's PATH</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>Live terminals</h2>
      <ul className="ops-list" aria-label="Live terminals">
        {data?.terminals.map((terminal) => {
          const usage = data.usage.get(terminal.id);
          const agent = agentOf(terminal.id);
          return (
            <li key={terminal.id} className="ops-item">
              <div className="ops-title">
                <Link to={`/projects/${terminal.project_id}/terminals`}>{`Terminal ${terminal.id}`}</Link>
                <span className="muted">in {projectName(terminal.project_id)}</span>
                {agent && <Badge>{agent.agent}</Badge>}
              </div>
              <p className="ops-line muted">
                <span className="ops-code">{terminal.shell}</span> · {terminal.cols}×{terminal.rows}
                {usage &&
                  ` · ${usage.processes.length} process${usage.processes.length === 1 ? '' : 'es'}, CPU ${usage.cpu_seconds.toFixed(1)} s, ${byteSize(usage.rss_bytes)}`}
              </p>
            </li>
          );
        })}
        {data?.terminals.length === 0 && <li className="muted">No live terminal.</li>}
      </ul>
    </section>
  );
}
