/**
 * The firewall at a glance, in cards: the pending safe apply first (a countdown to its deadline
 * and Confirm, read from the API so it survives a reload; at the deadline the state is read
 * again, the agent has rolled back unless confirmed), then backend and ownership (a competing
 * manager makes it read-only), the INPUT/FORWARD/OUTPUT policies, the rule counts (ours and
 * other tools'), the last apply, the alerts (unread warnings and critical notifications), the
 * recent audit entries (admins) and the exposure of every listening socket. Without an agent the
 * firewall cards give way to one that says why and how to start it.
 */

import { Link } from '@suite/web-ui';
import { Badge, Button, Card, type ColumnDef, DataTable, EmptyState, Skeleton } from '@suite/web-ui/kit';
import { BellRing, CircleCheck, Clock, Network, Plug, Server, ShieldCheck } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ApiFailure, describeError, get, post } from '../api';
import type { ChainPolicy, ExposedSocket, FirewallStatus, RulesAnswer, Transaction } from '../types';
import { useLoad } from '../use-load';
import { AgentDown, type AgentOutage, agentOutage } from './AgentDown';
import { ErrorMessage, StatusMessage } from './Messages';
import { RecentActivity } from './RecentActivity';

interface Overview {
  status: FirewallStatus;
  ruleCount: number;
  foreignCount: number;
  policies: ChainPolicy[];
  last: Transaction | null;
  sockets: ExposedSocket[];
}

/** The agent's answers, or why there is no agent (`FW_AGENT_UNAVAILABLE` and its reason). */
type FirewallView = { agent: 'up'; overview: Overview } | { agent: 'down'; outage: AgentOutage };

async function loadFirewall(): Promise<FirewallView> {
  try {
    const [status, rules, transactions, exposure] = await Promise.all([
      get<FirewallStatus>('/firewall/status'),
      get<RulesAnswer>('/firewall/rules'),
      get<{ transactions: Transaction[] }>('/firewall/transactions?limit=1'),
      get<{ sockets: ExposedSocket[] }>('/firewall/exposure'),
    ]);
    return {
      agent: 'up',
      overview: {
        status,
        ruleCount: rules.rules.length,
        foreignCount: rules.foreign.length,
        policies: rules.policies.filter((p) => p.table === 'filter'),
        last: transactions.transactions[0] ?? null,
        sockets: exposure.sockets,
      },
    };
  } catch (failure) {
    if (failure instanceof ApiFailure && failure.code === 'FW_AGENT_UNAVAILABLE')
      return { agent: 'down', outage: agentOutage(failure) };
    throw failure;
  }
}

export function Dashboard({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useLoad(loadFirewall);
  const [message, setMessage] = useState<string | null>(null);
  const overview = data?.agent === 'up' ? data.overview : undefined;
  const pending = overview?.status.pending_transaction ?? null;

  const confirm = async () => {
    if (!pending) return;
    let outcome: string;
    try {
      await post(`/firewall/transactions/${encodeURIComponent(pending.transaction_id)}/confirm`);
      outcome = 'The change is confirmed and stays.';
    } catch (failure) {
      outcome = describeError(failure);
    }
    // Said once the dashboard shows the state after it (no countdown left beside "confirmed").
    await reload();
    setMessage(outcome);
  };

  return (
    <section>
      <div className="screen-head">
        <h1>Dashboard</h1>
      </div>
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
      {data === undefined && !error && <Skeleton lines={6} label="Reading the firewall" />}
      {data?.agent === 'down' && <AgentDown outage={data.outage} onRetry={reload} />}
      <div className="cards">
        {overview && <FirewallCards overview={overview} />}
        <RecentActivity isAdmin={isAdmin} />
        {overview && <Exposure sockets={overview.sockets} />}
      </div>
    </section>
  );
}

function FirewallCards({ overview }: { overview: Overview }) {
  const { status, last } = overview;
  return (
    <>
      <Card title="Firewall" icon={<Server size={18} />} labelledBy="card-firewall">
        <dl className="facts">
          <dt>Backend</dt>
          <dd data-testid="backend">
            {status.backend}
            {status.variant ? ` (${status.variant})` : ''}
          </dd>
          <dt>Ownership</dt>
          <dd>
            <span data-testid="ownership">
              {status.read_only
                ? 'Read-only: a competing firewall manager rewrites the same rules'
                : status.conflicts.length > 0
                  ? 'Writable despite a competing firewall manager (allowed by the config)'
                  : 'Managed by firewarden'}
            </span>{' '}
            {status.read_only ? <Badge tone="danger">read-only</Badge> : <Badge tone="ok">writable</Badge>}
          </dd>
          <dt>Other managers</dt>
          <dd>
            {status.managers.length === 0 ? (
              'none'
            ) : (
              <ul data-testid="managers">
                {status.managers.map((manager) => (
                  <li key={`${manager.name} ${manager.role}`}>
                    <strong>{manager.name}</strong> ({manager.role}): {manager.reason}
                  </li>
                ))}
              </ul>
            )}
          </dd>
        </dl>
      </Card>
      <Card title="Policies" icon={<ShieldCheck size={18} />} labelledBy="card-policies">
        {overview.policies.length === 0 ? (
          <p data-testid="policies">none loaded</p>
        ) : (
          <ul className="policy-list" data-testid="policies">
            {overview.policies.map((policy) => (
              <li key={`${policy.family} ${policy.chain}`}>
                <span>{`${policy.family} ${policy.chain}`}</span>{' '}
                <Badge tone={policy.policy === 'ACCEPT' && policy.chain !== 'OUTPUT' ? 'warn' : 'ok'}>
                  {policy.policy}
                </Badge>
              </li>
            ))}
          </ul>
        )}
      </Card>
      <Card
        title="Rules"
        icon={<Network size={18} />}
        labelledBy="card-rules"
        action={<Link to="/rules">Open the rules</Link>}
      >
        <div className="counts">
          <div>
            <div className="big-number" data-testid="rule-count">
              {overview.ruleCount}
            </div>
            <p>managed by firewarden</p>
          </div>
          <div>
            <div className="big-number" data-testid="foreign-rule-count">
              {overview.foreignCount}
            </div>
            <p>of other tools (read-only)</p>
          </div>
        </div>
      </Card>
      <Card title="Last apply" icon={<Clock size={18} />} labelledBy="card-last-apply">
        <p data-testid="last-apply">
          {last
            ? `${last.state.replace('_', ' ')} — ${formatTime(last.created_at)} by ${last.created_by}`
            : 'none yet'}
        </p>
        {last && <Badge tone={stateTone(last.state)}>{last.state.replace('_', ' ')}</Badge>}
      </Card>
    </>
  );
}

function stateTone(state: Transaction['state']) {
  if (state === 'confirmed' || state === 'applied') return 'ok';
  if (state === 'pending') return 'warn';
  return 'danger';
}

const exposureTone = { exposed: 'danger', partly: 'warn', blocked: 'ok', loopback_only: 'neutral' } as const;

const socketColumns: ColumnDef<ExposedSocket>[] = [
  { accessorKey: 'protocol', header: 'protocol' },
  { accessorKey: 'address', header: 'address' },
  { accessorKey: 'port', header: 'port' },
  { id: 'process', accessorFn: (socket) => socket.process ?? '-', header: 'process' },
  {
    accessorKey: 'exposure',
    header: 'exposure',
    cell: ({ row }) => (
      <Badge tone={exposureTone[row.original.exposure]}>{row.original.exposure.replace('_', ' ')}</Badge>
    ),
  },
  {
    id: 'rules',
    header: 'our rules',
    accessorFn: (socket) => (socket.rules.length > 0 ? socket.rules.join(', ') : '-'),
    enableSorting: false,
  },
];

function Exposure({ sockets }: { sockets: ExposedSocket[] }) {
  return (
    <Card className="wide" title="Exposure" icon={<Plug size={18} />} labelledBy="card-exposure">
      <DataTable
        caption={`${sockets.length} listening sockets and whether the outside reaches them`}
        columns={socketColumns}
        rows={sockets}
        rowId={(socket) => `${socket.protocol} ${socket.address} ${socket.port}`}
        pageSize={10}
        empty={<EmptyState icon={<CircleCheck size={28} />} title="Nothing listens on this host." />}
      />
    </Card>
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
      <div>
        <p>
          <BellRing aria-hidden="true" size={18} /> <strong>A change is applied on probation.</strong>
        </p>
        <p>
          Without a confirm it is rolled back in{' '}
          <strong className="countdown" data-testid="countdown" aria-live="polite">
            {left} s
          </strong>
          .{props.isAdmin ? '' : ' An admin can confirm it.'}
        </p>
      </div>
      {props.isAdmin && (
        <Button variant="primary" icon={<CircleCheck size={16} />} onClick={props.onConfirm}>
          Confirm
        </Button>
      )}
    </section>
  );
}

export function formatTime(iso: string): string {
  return new Date(iso).toLocaleString();
}
