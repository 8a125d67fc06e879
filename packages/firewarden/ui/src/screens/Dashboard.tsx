/**
 * The firewall at a glance: backend, the other managers (competing ones make it read-only),
 * INPUT/FORWARD/OUTPUT policies, rule counts (ours and other tools'), the listening sockets and
 * their exposure, the last transaction, and the pending safe apply read from the API (so it survives a reload):
 * a countdown to its deadline with a Confirm button. At the deadline the state is read again
 * (the agent has rolled back unless confirmed).
 */
import { useEffect, useState } from 'react';
import { describeError, get, post } from '../api';
import type { ChainPolicy, ExposedSocket, FirewallStatus, RulesAnswer, Transaction } from '../types';
import { useLoad } from '../use-load';
import { DataTable } from './DataTable';
import { ErrorMessage, StatusMessage } from './Messages';

interface Overview {
  status: FirewallStatus;
  ruleCount: number;
  foreignCount: number;
  policies: ChainPolicy[];
  last: Transaction | null;
  sockets: ExposedSocket[];
}

async function loadOverview(): Promise<Overview> {
  const [status, rules, transactions, exposure] = await Promise.all([
    get<FirewallStatus>('/firewall/status'),
    get<RulesAnswer>('/firewall/rules'),
    get<{ transactions: Transaction[] }>('/firewall/transactions?limit=1'),
    get<{ sockets: ExposedSocket[] }>('/firewall/exposure'),
  ]);
  return {
    status,
    ruleCount: rules.rules.length,
    foreignCount: rules.foreign.length,
    policies: rules.policies.filter((p) => p.table === 'filter'),
    last: transactions.transactions[0] ?? null,
    sockets: exposure.sockets,
  };
}

export function Dashboard({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useLoad(loadOverview);
  const [message, setMessage] = useState<string | null>(null);
  const pending = data?.status.pending_transaction ?? null;

  const confirm = async () => {
    if (!pending) return;
    try {
      await post(`/firewall/transactions/${encodeURIComponent(pending.transaction_id)}/confirm`);
      setMessage('The change is confirmed and stays.');
    } catch (failure) {
      setMessage(describeError(failure));
    }
    await reload();
  };

  return (
    <section>
      <h1>Dashboard</h1>
      <ErrorMessage text={error} />
      <StatusMessage text={message} />
      {pending && (
        <Countdown
          deadline={pending.deadline}
          isAdmin={isAdmin}
          onConfirm={confirm}
          onExpired={async () => {
            await reload();
            setMessage('The safe-apply window ended without a confirm: the previous rules are back.');
          }}
        />
      )}
      {data && (
        <dl className="facts">
          <dt>Backend</dt>
          <dd data-testid="backend">
            {data.status.backend}
            {data.status.variant ? ` (${data.status.variant})` : ''}
          </dd>
          <dt>Ownership</dt>
          <dd data-testid="ownership">
            {data.status.read_only
              ? 'Read-only: a competing firewall manager rewrites the same rules'
              : data.status.conflicts.length > 0
                ? 'Writable despite a competing firewall manager (allowed by the config)'
                : 'Managed by firewarden'}
          </dd>
          <dt>Other managers</dt>
          <dd>
            {data.status.managers.length === 0 ? (
              'none'
            ) : (
              <ul data-testid="managers">
                {data.status.managers.map((manager) => (
                  <li key={`${manager.name} ${manager.role}`}>
                    <strong>{manager.name}</strong> ({manager.role}): {manager.reason}
                  </li>
                ))}
              </ul>
            )}
          </dd>
          <dt>Policies</dt>
          <dd data-testid="policies">
            {data.policies.map((p) => `${p.family} ${p.chain} ${p.policy}`).join(', ') || 'none loaded'}
          </dd>
          <dt>Rules</dt>
          <dd data-testid="rule-count">{data.ruleCount}</dd>
          <dt>Rules of other tools</dt>
          <dd data-testid="foreign-rule-count">{data.foreignCount}</dd>
          <dt>Last apply</dt>
          <dd data-testid="last-apply">
            {data.last
              ? `${data.last.state.replace('_', ' ')} — ${formatTime(data.last.created_at)} by ${data.last.created_by}`
              : 'none yet'}
          </dd>
        </dl>
      )}
      {data && (
        <>
          <h2>Exposure</h2>
          <DataTable
            caption={`${data.sockets.length} listening sockets and whether the outside reaches them`}
            headers={['protocol', 'address', 'port', 'process', 'exposure', 'our rules']}
          >
            {data.sockets.map((socket) => (
              <tr key={`${socket.protocol} ${socket.address} ${socket.port}`}>
                <td>{socket.protocol}</td>
                <td>{socket.address}</td>
                <td>{socket.port}</td>
                <td>{socket.process ?? '-'}</td>
                <td>{socket.exposure.replace('_', ' ')}</td>
                <td>{socket.rules.length > 0 ? socket.rules.join(', ') : '-'}</td>
              </tr>
            ))}
          </DataTable>
        </>
      )}
    </section>
  );
}

function Countdown(props: {
  deadline: string;
  isAdmin: boolean;
  onConfirm: () => void;
  onExpired: () => void;
}) {
  const deadline = Date.parse(props.deadline);
  const [now, setNow] = useState(Date.now());
  const left = Math.max(0, Math.ceil((deadline - now) / 1000));
  const expired = left === 0;
  const { onExpired } = props;

  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (!expired) return;
    // The agent rolls back at the deadline; give it a moment before reading the state again.
    const timer = setTimeout(onExpired, 1500);
    return () => clearTimeout(timer);
  }, [expired, onExpired]);

  return (
    <section className="pending" aria-label="Pending safe apply">
      <p>
        A change is applied on probation. Without a confirm it is rolled back in{' '}
        <strong data-testid="countdown" aria-live="polite">
          {left} s
        </strong>
        .
      </p>
      {props.isAdmin && (
        <button type="button" className="primary" onClick={props.onConfirm}>
          Confirm
        </button>
      )}
    </section>
  );
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
