/**
 * Restore points (the agent's): create one with a name, compare one with the rules in force or
 * two with each other rule by rule (`GET /firewall/snapshots/{id}` gives a point's rules; for two
 * points the SHA-256 of their saved states also says whether anything else differs), restore
 * one after a confirm dialog.
 */
import {
  Badge,
  Button,
  CheckboxField,
  type ColumnDef,
  DataTable,
  Dialog,
  EmptyState,
  Skeleton,
  TextField,
} from '@suite/web-ui/kit';
import { ArchiveRestore, Equal, EqualNot, GitCompareArrows, History, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { describeError, get, post } from '../api';
import type { RestorePoint, RestorePointRules, Rule, RulesAnswer } from '../types';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { ErrorMessage, StatusMessage } from './Messages';
import { RuleComparisonTable } from './RuleDiff';
import { type AlignedRow, alignRules } from './rule-alignment';

const nameOf = (point: RestorePoint) => point.note ?? point.id;

export function RestorePoints({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useLoad(() => get<{ snapshots: RestorePoint[] }>('/firewall/snapshots'));
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [withNow, setWithNow] = useState<RestorePoint | null>(null);
  const [restoring, setRestoring] = useState<RestorePoint | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const points = data?.snapshots ?? [];

  const run = async (work: () => Promise<string>) => {
    try {
      setMessage(await work());
    } catch (failure) {
      setMessage(describeError(failure));
    }
    await reload();
  };
  const create = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const { snapshot } = await post<{ snapshot: RestorePoint }>(
        '/firewall/snapshots',
        name === '' ? undefined : { name },
      );
      setName('');
      return `Restore point ${nameOf(snapshot)} created.`;
    });
  };
  const restore = (id: string) =>
    run(async () => {
      setRestoring(null);
      await post(`/firewall/snapshots/${encodeURIComponent(id)}/restore`);
      return 'The firewall is back to the restore point.';
    });
  const toggle = (id: string) => {
    setWithNow(null);
    setSelected(
      selected.includes(id) ? selected.filter((other) => other !== id) : [...selected.slice(-1), id],
    );
  };
  const compareWithNow = (point: RestorePoint) => {
    setSelected([]);
    setWithNow(point);
  };
  // The older point on the left, as a change reads from before to after.
  const compared = points
    .filter((point) => selected.includes(point.id))
    .sort((a, b) => a.created_at.localeCompare(b.created_at));

  const columns: ColumnDef<RestorePoint>[] = [
    {
      id: 'compare',
      header: 'Pick two',
      enableSorting: false,
      cell: ({ row }) => (
        <CheckboxField
          label={<span className="kit-visually-hidden">compare {nameOf(row.original)}</span>}
          checked={selected.includes(row.original.id)}
          onChange={() => toggle(row.original.id)}
        />
      ),
    },
    { id: 'name', header: 'Name', accessorFn: nameOf },
    {
      accessorKey: 'kind',
      header: 'Kind',
      cell: ({ row }) => (
        <Badge tone={row.original.kind === 'manual' ? 'info' : 'neutral'}>{row.original.kind}</Badge>
      ),
    },
    { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => formatTime(row.original.created_at) },
    {
      accessorKey: 'hash',
      header: 'State hash',
      enableSorting: false,
      cell: ({ row }) => <span className="hash kit-mono">{row.original.hash.slice(0, 12)}</span>,
    },
    {
      id: 'with-now',
      header: 'Compare',
      enableSorting: false,
      cell: ({ row }) => (
        <Button
          variant="ghost"
          icon={<GitCompareArrows size={16} />}
          onClick={() => compareWithNow(row.original)}
        >
          Compare with now<span className="kit-visually-hidden"> ({nameOf(row.original)})</span>
        </Button>
      ),
    },
    ...(isAdmin
      ? [
          {
            id: 'restore',
            header: 'Restore',
            enableSorting: false,
            cell: ({ row }) => (
              <Button icon={<ArchiveRestore size={16} />} onClick={() => setRestoring(row.original)}>
                Restore
              </Button>
            ),
          } satisfies ColumnDef<RestorePoint>,
        ]
      : []),
  ];

  return (
    <section>
      <div className="screen-head">
        <h1>Restore points</h1>
      </div>
      <p className="lead">
        Saved firewall states. firewarden saves one before every apply; compare one with the rules now, or
        tick two to compare them rule by rule.
      </p>
      <ErrorMessage text={error} />
      <StatusMessage text={message} />
      {isAdmin && (
        <form onSubmit={create} className="inline">
          <TextField
            id="point-name"
            label="Name"
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" icon={<Plus size={16} />}>
            Create restore point
          </Button>
        </form>
      )}
      <DataTable
        caption={`${points.length} restore points, newest first (tick two to compare)`}
        columns={columns}
        rows={points}
        rowId={(point) => point.id}
        pageSize={20}
        empty={
          data && (
            <EmptyState icon={<History size={28} />} title="No restore point yet.">
              <p>
                {isAdmin
                  ? 'Create one above before a risky change; every apply also saves one automatically.'
                  : 'Every apply saves one automatically; admins can create one by hand.'}
              </p>
            </EmptyState>
          )
        }
      />
      {compared.length === 2 && <Comparison before={compared[0]!} after={compared[1]!} />}
      {withNow && <Comparison before={withNow} after="now" />}
      <Dialog
        open={restoring !== null}
        onOpenChange={(open) => !open && setRestoring(null)}
        title={`Restore ${restoring ? nameOf(restoring) : ''}?`}
        description="The firewall's rules are replaced by the ones saved in this restore point, at once and without safe apply. The state before is saved as a restore point first."
        actions={
          restoring && (
            <>
              <Button onClick={() => setRestoring(null)}>Cancel</Button>
              <Button variant="danger" onClick={() => restore(restoring.id)}>
                Yes, restore {restoring.note ?? 'it'}
              </Button>
            </>
          )
        }
      />
    </section>
  );
}

/** A point's rules, or the rules in force for `now`. */
async function rulesOf(side: RestorePoint | 'now'): Promise<Rule[]> {
  if (side === 'now') return (await get<RulesAnswer>('/firewall/rules')).rules;
  return (await get<RestorePointRules>(`/firewall/snapshots/${encodeURIComponent(side.id)}`)).rules;
}

/** How many rules of each kind of change, in words. */
function countsOf(rows: AlignedRow[]): string {
  const count = (kind: AlignedRow['kind']) => rows.filter((row) => row.kind === kind).length;
  if (rows.every((row) => row.kind === 'same')) return `The same ${rows.length} rules.`;
  return `${count('added')} added, ${count('removed')} removed, ${count('changed')} changed, ${count('same')} the same.`;
}

/** One restore point against another (older first) or against the rules in force, rule by rule. */
function Comparison({ before, after }: { before: RestorePoint; after: RestorePoint | 'now' }) {
  const { data, error } = useLoad(
    async () => alignRules(await rulesOf(before), await rulesOf(after)),
    [before.id, after === 'now' ? 'now' : after.id],
  );
  const afterName = after === 'now' ? 'the rules now' : nameOf(after);
  const same = after !== 'now' && before.hash === after.hash;
  return (
    <section className="compare kit-card" aria-labelledby="comparison-title">
      <h2 id="comparison-title">
        {same ? <Equal aria-hidden="true" size={18} /> : <EqualNot aria-hidden="true" size={18} />}{' '}
        Comparison: {nameOf(before)} and {afterName}
      </h2>
      {after !== 'now' && (
        <p data-testid="compare-result">
          {same
            ? 'The two restore points hold the same firewall state.'
            : 'The two restore points hold different firewall states.'}
        </p>
      )}
      <ErrorMessage text={error} />
      {data ? (
        <>
          <p data-testid="compare-counts">
            From {nameOf(before)} to {afterName}: {countsOf(data)}
          </p>
          <RuleComparisonTable
            caption={`Rules of ${nameOf(before)} and ${afterName}, side by side`}
            before={`${nameOf(before)} (${formatTime(before.created_at)})`}
            after={after === 'now' ? 'Now' : `${nameOf(after)} (${formatTime(after.created_at)})`}
            rows={data}
          />
        </>
      ) : (
        !error && <Skeleton lines={3} label="Reading the rules to compare" />
      )}
      {after !== 'now' && (
        <div className="compare-grid">
          {[before, after].map((point) => (
            <dl className="facts" key={point.id}>
              <dt>Name</dt>
              <dd>{nameOf(point)}</dd>
              <dt>Kind</dt>
              <dd>{point.kind}</dd>
              <dt>Created</dt>
              <dd>{formatTime(point.created_at)}</dd>
              <dt>State hash</dt>
              <dd className="kit-mono">{point.hash}</dd>
            </dl>
          ))}
        </div>
      )}
    </section>
  );
}
