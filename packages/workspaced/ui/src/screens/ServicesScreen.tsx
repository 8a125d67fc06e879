/**
 * Services and previews: the host (`GET /services/host`), the service registry
 * (`GET /services`, `POST /services`, `DELETE /services/{name}`) and the TCP ports listening on
 * the host (`GET /services/ports`), with a Preview link for a port reachable on loopback. A
 * preview opens `/api/v1/preview/{port}/` in a new tab: the daemon redirects it to the app's own
 * origin `p<port>.localhost:<preview port>` (README "Previews"); it takes `terminal.create`, so
 * the link is offered only with that permission, and the registry's controls only with
 * `services.control` (both global permissions: the session's `permissions` say whether the user
 * holds them; the daemon decides anyway and its refusal is shown). The daemon's own listeners
 * cannot be previewed.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { useState } from 'react';
import { api } from '../api.js';
import { useSubmit } from '../components/actions.js';
import { ErrorLine } from '../components/Notices.js';
import { RefreshHeading } from '../components/RefreshHeading.js';
import { ProjectField } from '../components/SelectField.js';
import type { Project } from '../types.js';
import { byteSize } from './AgentsScreen.js';
import './operations.css';

interface Service {
  name: string;
  port: number;
  url: string | null;
  project_id: number | null;
  created_by: string;
  created_at: string;
  listening: boolean;
}

interface ListeningPort {
  protocol: 'tcp' | 'tcp6';
  address: string;
  port: number;
  uid: number;
  process: { pid: number; name: string; command: string[] } | null;
}

interface HostSnapshot {
  hostname: string;
  os: { platform: string; type: string; distribution: string | null };
  kernel: { release: string };
  arch: string;
  cpus: { count: number; model: string | null };
  memory_total_bytes: number;
  uptime_secs: number;
  daemon: { pid: number; uptime_secs: number; node_version: string };
}

/** A preview reaches 127.0.0.1 or ::1: a socket bound to another address only is out of its reach. */
function reachableOnLoopback(address: string): boolean {
  return (
    address === '0.0.0.0' ||
    address === '::' ||
    address === '::1' ||
    address.startsWith('127.') ||
    address.startsWith('::ffff:127.')
  );
}

function previewHref(port: number): string {
  return `/api/v1/preview/${port}/`;
}

function duration(seconds: number): string {
  const days = Math.floor(seconds / 86_400);
  const hours = Math.floor((seconds % 86_400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  return days > 0 ? `${days} d ${hours} h` : hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}

/** Only http(s) URLs become links (the daemon accepts no other, this keeps it so). */
function safeUrl(text: string): boolean {
  return text.startsWith('http://') || text.startsWith('https://');
}

function PreviewLink({ port, label }: { port: number; label: string }) {
  return (
    <a href={previewHref(port)} target="_blank" rel="noopener noreferrer" aria-label={label}>
      Preview
    </a>
  );
}

export function ServicesScreen({ permissions }: { permissions: ReadonlySet<string> }) {
  const services = useLoad(() => api<{ services: Service[] }>('GET', '/services'), []);
  const ports = useLoad(() => api<{ ports: ListeningPort[] }>('GET', '/services/ports'), []);
  const host = useLoad(() => api<HostSnapshot>('GET', '/services/host'), []);
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [message, setMessage] = useState<string>();
  const [draftPort, setDraftPort] = useState('');
  const canPreview = permissions.has('terminal.create');
  const canControl = permissions.has('services.control');
  const daemonPid = host.data?.daemon.pid;
  // The daemon's own listeners (its API and preview origin) cannot be previewed.
  const ownPorts = new Set(
    ports.data?.ports
      .filter((socket) => daemonPid !== undefined && socket.process?.pid === daemonPid)
      .map((socket) => socket.port),
  );
  const projectName = (id: number) =>
    projects.data?.projects.find((p) => p.id === id)?.name ?? `project ${id}`;
  const reload = () => {
    services.reload();
    ports.reload();
  };

  const remove = async (name: string) => {
    setMessage(undefined);
    try {
      await api('DELETE', `/services/${encodeURIComponent(name)}`);
      services.reload();
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  if (services.error)
    return (
      <section className="ops">
        <h1>Services</h1>
        <p role="alert" className="error">
          You cannot see services: {services.error}.
        </p>
      </section>
    );

  return (
    <section className="ops">
      <RefreshHeading title="Services" onRefresh={reload} />
      {host.data && (
        <section aria-label="Host" className="ops-card">
          <h2>{host.data.hostname}</h2>
          <dl className="ops-facts">
            <dt>System</dt>
            <dd>
              {host.data.os.distribution ?? host.data.os.type}, kernel {host.data.kernel.release},{' '}
              {host.data.arch}
            </dd>
            <dt>CPUs</dt>
            <dd>
              {host.data.cpus.count}
              {host.data.cpus.model && ` × ${host.data.cpus.model}`}
            </dd>
            <dt>Memory</dt>
            <dd>{byteSize(host.data.memory_total_bytes)}</dd>
            <dt>Up</dt>
            <dd>{duration(host.data.uptime_secs)}</dd>
            <dt>Daemon</dt>
            <dd>
              pid {host.data.daemon.pid}, Node {host.data.daemon.node_version}, up{' '}
              {duration(host.data.daemon.uptime_secs)}
            </dd>
          </dl>
        </section>
      )}
      <ErrorLine message={message} />
      <h2>Registered services</h2>
      {!services.data && !services.error && <Skeleton lines={3} label="Loading the services" />}
      <ul className="ops-list" aria-label="Services">
        {services.data?.services.map((service) => (
          <li key={service.name} className="ops-item" aria-label={`Service ${service.name}`}>
            <div className="ops-title">
              <strong className="ops-name">{service.name}</strong>
              <span className="muted">port {service.port}</span>
              <Badge tone={service.listening ? 'ok' : 'neutral'}>
                {service.listening ? 'listening' : 'not listening'}
              </Badge>
            </div>
            <dl className="ops-facts">
              {service.url && (
                <>
                  <dt>Address</dt>
                  <dd className="ops-code">
                    {safeUrl(service.url) ? (
                      <a href={service.url} target="_blank" rel="noopener noreferrer">
                        {service.url}
                      </a>
                    ) : (
                      service.url
                    )}
                  </dd>
                </>
              )}
              {service.project_id !== null && (
                <>
                  <dt>Project</dt>
                  <dd>{projectName(service.project_id)}</dd>
                </>
              )}
            </dl>
            <div className="ops-actions">
              {canPreview && !ownPorts.has(service.port) && (
                <PreviewLink port={service.port} label={`Preview ${service.name}`} />
              )}
              {canControl && (
                <button type="button" onClick={() => remove(service.name)}>
                  Remove
                </button>
              )}
            </div>
          </li>
        ))}
        {services.data?.services.length === 0 && <li className="muted">No service registered yet.</li>}
      </ul>
      {canControl ? (
        <AddServiceForm
          projects={projects.data?.projects ?? []}
          port={draftPort}
          onPort={setDraftPort}
          onAdded={services.reload}
        />
      ) : (
        <p className="muted">Your role lists services; adding or removing them takes services.control.</p>
      )}
      <h2>Listening ports</h2>
      {canPreview ? (
        <p className="muted">
          A preview opens the app on its own origin, <span className="ops-code">p&lt;port&gt;.localhost</span>
          , through the daemon.
        </p>
      ) : (
        <p className="muted">
          Previews take the permission to open terminals, which your role does not have.
        </p>
      )}
      <ErrorLine message={ports.error} />
      <ul className="ops-list" aria-label="Listening ports">
        {ports.data?.ports.map((socket) => {
          const own = ownPorts.has(socket.port);
          return (
            <li key={`${socket.protocol} ${socket.address} ${socket.port}`} className="ops-item ops-port">
              <div className="ops-title">
                <strong>{socket.port}</strong>
                <span className="ops-code">
                  {socket.protocol} {socket.address}
                </span>
                {own && <Badge tone="info">this daemon</Badge>}
              </div>
              <p className="ops-line">
                {socket.process ? (
                  <>
                    <span className="ops-code" data-testid="port-process">
                      pid {socket.process.pid} {socket.process.name}
                    </span>{' '}
                    <span className="ops-code muted">{socket.process.command.join(' ')}</span>
                  </>
                ) : (
                  <span className="muted">another user's process (uid {socket.uid})</span>
                )}
              </p>
              <div className="ops-actions">
                {canPreview && !own && reachableOnLoopback(socket.address) && (
                  <PreviewLink port={socket.port} label={`Preview port ${socket.port}`} />
                )}
                {canControl && !own && (
                  <button type="button" onClick={() => setDraftPort(String(socket.port))}>
                    Register as a service
                  </button>
                )}
              </div>
            </li>
          );
        })}
        {ports.data?.ports.length === 0 && <li className="muted">Nothing listens.</li>}
      </ul>
    </section>
  );
}

function AddServiceForm(props: {
  projects: Project[];
  port: string;
  onPort: (port: string) => void;
  onAdded: () => void;
}) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [projectId, setProjectId] = useState('');
  const { submit, error } = useSubmit(async () => {
    await api('POST', '/services', {
      name,
      port: Number(props.port),
      url: url.trim() === '' ? null : url.trim(),
      project_id: projectId === '' ? null : Number(projectId),
    });
    setName('');
    setUrl('');
    setProjectId('');
    props.onPort('');
    props.onAdded();
  });
  return (
    <>
      <h2>Add a service</h2>
      <form className="inline-form" onSubmit={submit} aria-label="Add a service">
        <label>
          Service name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="web" required />
        </label>
        <label>
          Port
          <input
            inputMode="numeric"
            pattern="[0-9]+"
            value={props.port}
            onChange={(e) => props.onPort(e.target.value)}
            required
          />
        </label>
        <label>
          URL (optional)
          <input value={url} onChange={(e) => setUrl(e.target.value)} placeholder="http://127.0.0.1:3000/" />
        </label>
        <ProjectField
          label="Project (optional)"
          value={projectId}
          projects={props.projects}
          onChange={setProjectId}
          none="(none)"
        />
        <button type="submit">Add service</button>
        <ErrorLine message={error} />
      </form>
    </>
  );
}
