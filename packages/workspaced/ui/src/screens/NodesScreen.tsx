/**
 * Nodes: other workspaced daemons whose agents this one may read. This daemon's identity
 * (`GET /nodes/self`, for the other side to register and compare), the registered nodes
 * (`GET /nodes`), adding one (`POST /nodes`), and per node: a one-time pairing code for it
 * (`POST /nodes/{id}/pairing`, shown once), pairing with the code the other daemon showed
 * (`POST /nodes/{id}/connect`, which redeems it at the node's `POST /nodes/pair`), its agents
 * (`GET /nodes/{id}/agents`) and revoking it after a confirmation (`POST /nodes/{id}/revoke`).
 * Reading needs `settings.view`, changing `settings.manage` (owners and admins); other roles
 * see the daemon's refusal.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Badge, Skeleton, type Tone } from '@suite/web-ui/kit';
import { useState } from 'react';
import { api } from '../api.js';
import { AgentStateBadge } from '../components/AgentStateBadge.js';
import { useSubmit } from '../components/actions.js';
import { ErrorLine } from '../components/Notices.js';
import './operations.css';

interface PeerNode {
  id: number;
  name: string;
  url: string;
  status: 'pending' | 'paired' | 'revoked';
  public_key: string | null;
  fingerprint: string | null;
  outbound: boolean;
  inbound: boolean;
  pairing_expires_at: string | null;
  created_at: string;
  paired_at: string | null;
  last_seen_at: string | null;
  revoked_at: string | null;
}

interface RemoteAgent {
  terminal_id: number;
  project_id: number;
  agent: string;
  state: string;
}

interface PairingCode {
  node_id: number;
  node_name: string;
  code: string;
  expires_at: string;
}

const statusTones: Record<PeerNode['status'], Tone> = { pending: 'warn', paired: 'ok', revoked: 'danger' };

const when = (iso: string | null) => (iso === null ? 'never' : new Date(iso).toLocaleString());

export function NodesScreen() {
  const nodes = useLoad(() => api<{ nodes: PeerNode[] }>('GET', '/nodes'), []);
  const self = useLoad(() => api<{ public_key: string; fingerprint: string }>('GET', '/nodes/self'), []);
  const [pairing, setPairing] = useState<PairingCode>();
  const [message, setMessage] = useState<string>();

  const openPairing = async (node: PeerNode) => {
    setMessage(undefined);
    try {
      const answer = await api<Omit<PairingCode, 'node_name'>>('POST', `/nodes/${node.id}/pairing`);
      setPairing({ ...answer, node_name: node.name });
      nodes.reload();
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  return (
    <section className="ops">
      <h1>Nodes</h1>
      <p className="muted">
        Pair with another workspaced daemon to read its agents. Pairing takes a step on each side: the daemon
        whose agents are read creates a one-time code for the other, which pairs with it.
      </p>
      {nodes.error ? (
        <p role="alert" className="error">
          You cannot manage nodes: {nodes.error}.
        </p>
      ) : (
        <>
          {self.data && (
            <section aria-label="This daemon" className="ops-card">
              <h2>This daemon</h2>
              <dl className="ops-facts">
                <dt>Fingerprint</dt>
                <dd className="ops-code" data-testid="self-fingerprint">
                  {self.data.fingerprint}
                </dd>
                <dt>Public key</dt>
                <dd className="ops-code">{self.data.public_key}</dd>
              </dl>
              <p className="muted">Give the public key to the other daemon when it registers this one.</p>
            </section>
          )}
          {pairing && <PairingCodeBox pairing={pairing} onDone={() => setPairing(undefined)} />}
          <ErrorLine message={message} />
          <h2>Registered nodes</h2>
          {!nodes.data && !nodes.error && <Skeleton lines={3} label="Loading the nodes" />}
          <ul className="ops-list" aria-label="Nodes">
            {nodes.data?.nodes.map((node) => (
              <NodeItem
                key={node.id}
                node={node}
                onChanged={nodes.reload}
                onPairing={() => openPairing(node)}
              />
            ))}
            {nodes.data?.nodes.length === 0 && <li className="muted">No node registered yet.</li>}
          </ul>
          <AddNodeForm onAdded={nodes.reload} />
        </>
      )}
    </section>
  );
}

/** The code is in this answer only: the daemon keeps its hash. */
function PairingCodeBox({ pairing, onDone }: { pairing: PairingCode; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(pairing.code);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section aria-label="Pairing code" className="ops-secret">
      <h2>Pairing code for {pairing.node_name}</h2>
      <p>
        On the other daemon, pair with node id{' '}
        <strong data-testid="pairing-node-id">{pairing.node_id}</strong> and this code:
      </p>
      <p className="ops-code ops-big" data-testid="pairing-code">
        {pairing.code}
      </p>
      <p>
        Valid until {when(pairing.expires_at)}, for one use and five attempts.{' '}
        <strong>It is shown only now</strong>: a new code replaces it.
      </p>
      <div className="ops-actions">
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy code'}
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

function NodeItem({
  node,
  onChanged,
  onPairing,
}: {
  node: PeerNode;
  onChanged: () => void;
  onPairing: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [agents, setAgents] = useState<RemoteAgent[]>();
  const [error, setError] = useState<string>();

  const run = async (action: () => Promise<void>) => {
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const revoke = () =>
    run(async () => {
      await api('POST', `/nodes/${node.id}/revoke`);
      setConfirming(false);
      setAgents(undefined);
      onChanged();
    });
  const readAgents = () =>
    run(async () => {
      setAgents((await api<{ agents: RemoteAgent[] }>('GET', `/nodes/${node.id}/agents`)).agents);
    });

  return (
    <li className="ops-item" aria-label={`Node ${node.name}`}>
      <div className="ops-title">
        <strong className="ops-name">{node.name}</strong>
        <span data-testid="node-status">
          <Badge tone={statusTones[node.status]}>{node.status}</Badge>
        </span>
      </div>
      <dl className="ops-facts">
        <dt>Address</dt>
        <dd className="ops-code">{node.url}</dd>
        <dt>Fingerprint</dt>
        <dd className="ops-code">{node.fingerprint ?? 'learnt when pairing'}</dd>
        <dt>Credentials</dt>
        <dd>
          {node.outbound ? 'we read its agents' : 'we cannot read its agents'};{' '}
          {node.inbound ? 'it reads ours' : 'it cannot read ours'}
        </dd>
        {node.pairing_expires_at && (
          <>
            <dt>Open code</dt>
            <dd>until {when(node.pairing_expires_at)}</dd>
          </>
        )}
        <dt>Last seen</dt>
        <dd>{when(node.last_seen_at)}</dd>
      </dl>
      <div className="ops-actions">
        {node.status === 'revoked' ? (
          <p className="muted">Revoked for good: to pair with it again, add it as a new node.</p>
        ) : (
          <>
            <button type="button" onClick={onPairing}>
              New pairing code
            </button>
            <button type="button" onClick={() => setConnecting(!connecting)} aria-expanded={connecting}>
              Pair with a code
            </button>
          </>
        )}
        {node.outbound && (
          <button type="button" onClick={readAgents}>
            Show agents
          </button>
        )}
        {node.status !== 'revoked' && !confirming && (
          <button type="button" onClick={() => setConfirming(true)}>
            Revoke
          </button>
        )}
      </div>
      {confirming && (
        <fieldset className="ops-confirm" aria-label={`Confirm revoking ${node.name}`}>
          <p>
            Revoke {node.name}? Every credential between the two daemons is erased: it stops working with the
            next request, and pairing with it again takes a new registration.
          </p>
          <button type="button" className="danger" onClick={revoke}>
            Yes, revoke {node.name}
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </fieldset>
      )}
      {connecting && (
        <ConnectForm
          node={node}
          onConnected={() => {
            setConnecting(false);
            onChanged();
          }}
          onError={setError}
        />
      )}
      <ErrorLine message={error} />
      {agents && (
        <ul className="list" aria-label={`Agents of ${node.name}`}>
          {agents.map((agent) => (
            <li key={agent.terminal_id}>
              <strong>{agent.agent}</strong> <AgentStateBadge state={agent.state} />
              <span className="muted">
                terminal {agent.terminal_id}, project {agent.project_id}
              </span>
            </li>
          ))}
          {agents.length === 0 && <li className="muted">No agent is running on {node.name}.</li>}
        </ul>
      )}
    </li>
  );
}

/** The code and node id the other daemon showed; this daemon redeems them there. */
function ConnectForm(props: { node: PeerNode; onConnected: () => void; onError: (message: string) => void }) {
  const [remoteId, setRemoteId] = useState('');
  const [code, setCode] = useState('');
  const { submit, busy } = useSubmit(async () => {
    await api('POST', `/nodes/${props.node.id}/connect`, { remote_node_id: Number(remoteId), code });
    props.onConnected();
  }, props.onError);
  return (
    <form className="inline-form" onSubmit={submit} aria-label={`Pair with ${props.node.name}`}>
      <label>
        Node id shown there
        <input
          inputMode="numeric"
          pattern="[0-9]+"
          value={remoteId}
          onChange={(e) => setRemoteId(e.target.value)}
          required
        />
      </label>
      <label>
        Pairing code
        <input
          value={code}
          onChange={(e) => setCode(e.target.value)}
          placeholder="XXXXX-XXXXX"
          autoComplete="off"
          required
        />
      </label>
      <button type="submit" disabled={busy}>
        Pair
      </button>
    </form>
  );
}

function AddNodeForm({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const { submit, error } = useSubmit(async () => {
    await api('POST', '/nodes', {
      name,
      url,
      public_key: publicKey.trim() === '' ? null : publicKey.trim(),
    });
    setName('');
    setUrl('');
    setPublicKey('');
    onAdded();
  });
  return (
    <>
      <h2>Add a node</h2>
      <form className="inline-form" onSubmit={submit} aria-label="Add a node">
        <label>
          Node name
          <input value={name} onChange={(e) => setName(e.target.value)} placeholder="laptop" required />
        </label>
        <label>
          Node address
          <input
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://laptop.example:7676"
            required
          />
        </label>
        <label>
          Its public key (optional)
          <input value={publicKey} onChange={(e) => setPublicKey(e.target.value)} autoComplete="off" />
        </label>
        <button type="submit">Add node</button>
        <ErrorLine message={error} />
      </form>
    </>
  );
}
