/**
 * Named blocklists (`@name` sources of rules): each with its family, entries, where its entries
 * come from, its last change through the API and the rules naming it; admins create a list or
 * replace its entries (`BlocklistEditor`) and delete one (the server refuses while a rule names
 * it, and that refusal is shown). `/blocklists/<name>` opens one list: its facts, the rules
 * naming it and its entries; the rules table links a `@name` source there.
 */
import { Link, navigate } from '@suite/web-ui';
import {
  Badge,
  Button,
  Card,
  type ColumnDef,
  DataTable,
  Dialog,
  EmptyState,
  Skeleton,
  useToast,
} from '@suite/web-ui/kit';
import { ListX, Plus, Replace, ShieldBan, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ApiFailure, describeError, get, remove } from '../api';
import type { Blocklist, BlocklistSummary, Rule, RulesAnswer, Transaction } from '../types';
import { useLoad } from '../use-load';
import { BlocklistEditor, type SavedBlocklist } from './BlocklistEditor';
import { formatTime } from './Dashboard';
import { ErrorMessage } from './Messages';
import { ruleLine } from './RuleDiff';

/** Entries shown on a list's own page; the count says how many there are. */
const shownEntries = 500;

interface Row extends BlocklistSummary {
  /** Positions (from 1) of the rules naming the list as their source. */
  usedBy: number[];
  lastChange: Transaction | null;
}

const familyLabel: Record<BlocklistSummary['family'], string> = {
  both: 'IPv4 and IPv6',
  ipv4: 'IPv4',
  ipv6: 'IPv6',
};

const blocklistOps = new Set(['set_blocklist', 'delete_blocklist']);
/** States in which a transaction's change is (or is still) in the kernel. */
const inForce = new Set<Transaction['state']>(['pending', 'confirmed', 'applied']);

/** The newest change of the list still in force (the transaction list is newest first). */
function lastChangeOf(name: string, transactions: Transaction[]): Transaction | null {
  const changes = (transaction: Transaction) =>
    (transaction.actions as unknown as { op: string; name?: string }[]).some(
      (action) => blocklistOps.has(action.op) && action.name === name,
    );
  return transactions.find((transaction) => inForce.has(transaction.state) && changes(transaction)) ?? null;
}

export function Blocklists({ isAdmin, selected }: { isAdmin: boolean; selected: string | null }) {
  const { data, error, reload } = useLoad(async () => {
    const [{ blocklists }, { rules }, { transactions }] = await Promise.all([
      get<{ blocklists: BlocklistSummary[] }>('/firewall/blocklists'),
      get<RulesAnswer>('/firewall/rules'),
      get<{ transactions: Transaction[] }>('/firewall/transactions?limit=500'),
    ]);
    return { blocklists, rules, transactions };
  });
  const [editing, setEditing] = useState<BlocklistSummary | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Row | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const toast = useToast();

  const rows: Row[] = (data?.blocklists ?? []).map((list) => ({
    ...list,
    usedBy: (data?.rules ?? []).flatMap((rule, index) =>
      rule.source === `@${list.name}` ? [index + 1] : [],
    ),
    lastChange: lastChangeOf(list.name, data?.transactions ?? []),
  }));

  const saved = async (list: SavedBlocklist) => {
    setEditing(null);
    toast.notify({
      title: `Blocklist ${list.name}: ${list.entries} entries`,
      description: `${list.received} lines sent, merged to ${list.entries}. Applied with safe apply: confirm it on the dashboard before the countdown ends, or it is rolled back.`,
      tone: 'warn',
    });
    await reload();
  };
  const deleteList = async (row: Row) => {
    setDeleteError(null);
    try {
      await remove(`/firewall/blocklists/${encodeURIComponent(row.name)}`);
      setDeleting(null);
      toast.notify({
        title: `Blocklist ${row.name} deleted`,
        description: 'Applied with safe apply: confirm it on the dashboard, or it comes back.',
        tone: 'warn',
      });
      if (selected === row.name) navigate('/blocklists');
      await reload();
    } catch (failure) {
      setDeleteError(inUseText(failure));
    }
  };

  const columns: ColumnDef<Row>[] = [
    {
      accessorKey: 'name',
      header: 'Name',
      cell: ({ row }) => <Link to={`/blocklists/${row.original.name}`}>{row.original.name}</Link>,
    },
    { id: 'family', header: 'Family', accessorFn: (row) => familyLabel[row.family] },
    { accessorKey: 'entries', header: 'Entries', cell: ({ row }) => row.original.entries.toLocaleString() },
    {
      id: 'source',
      header: 'Source',
      enableSorting: false,
      // The API holds no feed URLs: every list is the entries sent to it.
      cell: () => <Badge tone="neutral">inline</Badge>,
    },
    {
      id: 'updated',
      header: 'Last update',
      accessorFn: (row) => row.lastChange?.created_at ?? '',
      cell: ({ row }) => {
        const change = row.original.lastChange;
        return change ? `${formatTime(change.created_at)} by ${change.created_by}` : 'not through the API';
      },
    },
    {
      id: 'used',
      header: 'Used by',
      accessorFn: (row) => row.usedBy.length,
      cell: ({ row }) =>
        row.original.usedBy.length === 0 ? (
          'no rule'
        ) : (
          <Link to="/rules">
            {row.original.usedBy.length === 1 ? 'rule' : 'rules'} {row.original.usedBy.join(', ')}
          </Link>
        ),
    },
    { accessorKey: 'comment', header: 'Comment', cell: ({ row }) => row.original.comment ?? '' },
    ...(isAdmin
      ? [
          {
            id: 'change',
            header: 'Change',
            enableSorting: false,
            cell: ({ row }) => (
              <span className="row-actions">
                <Button icon={<Replace size={16} />} onClick={() => setEditing(row.original)}>
                  Replace entries<span className="kit-visually-hidden"> of {row.original.name}</span>
                </Button>
                <Button
                  variant="ghost"
                  icon={<Trash2 size={16} />}
                  onClick={() => {
                    setDeleteError(null);
                    setDeleting(row.original);
                  }}
                >
                  Delete<span className="kit-visually-hidden"> {row.original.name}</span>
                </Button>
              </span>
            ),
          } satisfies ColumnDef<Row>,
        ]
      : []),
  ];

  const chosen = rows.find((row) => row.name === selected);
  return (
    <section>
      <div className="screen-head">
        <h1>Blocklists</h1>
        {isAdmin && (
          <Button variant="primary" icon={<Plus size={16} />} onClick={() => setEditing('new')}>
            New blocklist
          </Button>
        )}
      </div>
      <p className="lead">
        Named lists of addresses and CIDR blocks, held by the kernel as sets. A rule blocks a whole list by
        naming it as its source: <code>@name</code>.
      </p>
      <ErrorMessage text={error} />
      {data === undefined && !error ? (
        <Skeleton lines={4} label="Reading the blocklists" />
      ) : (
        <DataTable
          caption={`${rows.length} blocklists`}
          columns={columns}
          rows={rows}
          rowId={(row) => row.name}
          searchLabel="Filter blocklists"
          pageSize={20}
          empty={
            data && (
              <EmptyState icon={<ShieldBan size={28} />} title="No blocklist yet.">
                <p>
                  {isAdmin
                    ? 'Create one with "New blocklist": paste addresses or load a file (an abuse feed, a country, your bans), then add a rule whose source is @name.'
                    : 'An admin creates blocklists; rules then block them by naming @name as their source.'}
                </p>
              </EmptyState>
            )
          }
        />
      )}
      {selected !== null && data && (
        <BlocklistDetail name={selected} row={chosen ?? null} rules={data.rules} />
      )}
      {editing !== null && (
        <BlocklistEditor
          existing={editing === 'new' ? null : editing}
          taken={rows.map((row) => row.name)}
          onClose={() => setEditing(null)}
          onSaved={saved}
        />
      )}
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={`Delete blocklist ${deleting?.name ?? ''}?`}
        description="The kernel's sets go, with safe apply: confirm it on the dashboard in time or the list comes back. A list that a rule names cannot be deleted."
        actions={
          deleting && (
            <>
              <Button onClick={() => setDeleting(null)}>Cancel</Button>
              <Button variant="danger" icon={<Trash2 size={16} />} onClick={() => deleteList(deleting)}>
                Yes, delete {deleting.name}
              </Button>
            </>
          )
        }
      >
        <ErrorMessage text={deleteError} />
      </Dialog>
    </section>
  );
}

/** The server's refusal; for a list in use, with the rules that name it. */
function inUseText(failure: unknown): string {
  if (!(failure instanceof ApiFailure && failure.code === 'FW_BLOCKLIST_IN_USE'))
    return describeError(failure);
  const rules = (failure.details.rules as { position: number; rule: Rule }[] | undefined) ?? [];
  return `${describeError(failure)}: ${rules.map(({ position, rule }) => `rule ${position} (${ruleLine(rule)})`).join('; ')}`;
}

function BlocklistDetail({ name, row, rules }: { name: string; row: Row | null; rules: Rule[] }) {
  // Read again when the list changes (a replace on this page, a reload showing another count).
  const { data, error } = useLoad(
    () => get<{ blocklist: Blocklist }>(`/firewall/blocklists/${encodeURIComponent(name)}`),
    [name, row?.entries, row?.lastChange?.id],
  );
  if (row === null)
    return (
      <EmptyState icon={<ListX size={28} />} title={`There is no blocklist named ${name}.`}>
        <p>It may have been deleted; the table above lists the ones there are.</p>
      </EmptyState>
    );
  const entries = data?.blocklist.entries ?? [];
  return (
    <Card
      title={`Blocklist ${name}`}
      icon={<ShieldBan size={18} />}
      labelledBy="blocklist-detail"
      className="detail"
    >
      <dl className="facts">
        <dt>Family</dt>
        <dd>{familyLabel[row.family]}</dd>
        <dt>Entries</dt>
        <dd data-testid="blocklist-count">{row.entries.toLocaleString()}</dd>
        <dt>Comment</dt>
        <dd>{row.comment ?? 'none'}</dd>
        <dt>Used by</dt>
        <dd>
          {row.usedBy.length === 0 ? (
            `no rule: add one whose source is @${name}`
          ) : (
            <ul>
              {row.usedBy.map((position) => (
                <li key={position}>
                  {position}. {ruleLine(rules[position - 1]!)}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <ErrorMessage text={error} />
      {data ? (
        <>
          {/* Read-only but focusable and scrollable: a long list stays in its box. */}
          <div className="kit-field">
            <label htmlFor="blocklist-held">Entries as the kernel holds them</label>
            <textarea
              id="blocklist-held"
              className="kit-input kit-mono entries"
              readOnly
              rows={10}
              value={entries.slice(0, shownEntries).join('\n')}
            />
          </div>
          {entries.length > shownEntries && (
            <p className="meta">
              The first {shownEntries} of {entries.length.toLocaleString()} entries;{' '}
              <code>firewarden blocklist show {name}</code> prints them all.
            </p>
          )}
        </>
      ) : (
        !error && <Skeleton lines={3} label="Reading the entries" />
      )}
    </Card>
  );
}
