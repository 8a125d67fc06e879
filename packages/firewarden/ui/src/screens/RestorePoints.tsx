/**
 * Restore points (the agent's): create one with a name, compare two side by side (the API gives
 * each point's metadata and the SHA-256 of its saved state, so the comparison says whether the
 * two saved firewalls are identical), restore one after a confirm dialog.
 */
import {
  Badge,
  Button,
  CheckboxField,
  type ColumnDef,
  DataTable,
  Dialog,
  EmptyState,
  TextField,
} from '@suite/web-ui/kit';
import { ArchiveRestore, Equal, EqualNot, History, Plus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { describeError, get, post } from '../api';
import type { RestorePoint } from '../types';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { ErrorMessage, StatusMessage } from './Messages';

const nameOf = (point: RestorePoint) => point.note ?? point.id;

export function RestorePoints({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useLoad(() => get<{ snapshots: RestorePoint[] }>('/firewall/snapshots'));
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
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
  const toggle = (id: string) =>
    setSelected(
      selected.includes(id) ? selected.filter((other) => other !== id) : [...selected.slice(-1), id],
    );
  const compared = selected.flatMap((id) => points.filter((point) => point.id === id));

  const columns: ColumnDef<RestorePoint>[] = [
    {
      id: 'compare',
      header: 'Compare',
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
        Saved firewall states. firewarden saves one before every apply; tick two to compare them.
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
      {compared.length === 2 && <Comparison first={compared[0]!} second={compared[1]!} />}
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

function Comparison({ first, second }: { first: RestorePoint; second: RestorePoint }) {
  const same = first.hash === second.hash;
  return (
    <section className="compare kit-card" aria-label="Comparison">
      <h2>
        {same ? <Equal aria-hidden="true" size={18} /> : <EqualNot aria-hidden="true" size={18} />} Comparison
      </h2>
      <p data-testid="compare-result">
        {same
          ? 'The two restore points hold the same firewall state.'
          : 'The two restore points hold different firewall states.'}
      </p>
      <div className="compare-grid">
        {[first, second].map((point) => (
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
    </section>
  );
}
