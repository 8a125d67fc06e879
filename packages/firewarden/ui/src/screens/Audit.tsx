/** The audit log (admin): the newest 100 entries that match the API's filters, sortable and paged. */
import {
  Badge,
  Button,
  type ColumnDef,
  DataTable,
  EmptyState,
  SelectField,
  TextField,
} from '@suite/web-ui/kit';
import { Filter, ScrollText } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { get } from '../api';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { ErrorMessage } from './Messages';

interface Entry {
  seq: number;
  at: string;
  actor: string | null;
  action: string;
  target: string | null;
  outcome: string;
  client: string | null;
}

const outcomeTone = { success: 'ok', failure: 'danger', rejected: 'warn' } as const;

const columns: ColumnDef<Entry>[] = [
  { accessorKey: 'seq', header: '#' },
  { accessorKey: 'at', header: 'When', cell: ({ row }) => formatTime(row.original.at) },
  { id: 'actor', header: 'Actor', accessorFn: (entry) => entry.actor ?? '' },
  { accessorKey: 'action', header: 'Action', cell: ({ row }) => <code>{row.original.action}</code> },
  { id: 'target', header: 'Target', accessorFn: (entry) => entry.target ?? '' },
  {
    accessorKey: 'outcome',
    header: 'Outcome',
    cell: ({ row }) => (
      <Badge tone={outcomeTone[row.original.outcome as keyof typeof outcomeTone] ?? 'neutral'}>
        {row.original.outcome}
      </Badge>
    ),
  },
  { id: 'client', header: 'Client', accessorFn: (entry) => entry.client ?? '' },
];

export function Audit() {
  const [filters, setFilters] = useState({ actor: '', action: '', outcome: '' });
  const [applied, setApplied] = useState(filters);
  const query = new URLSearchParams(Object.entries(applied).filter(([, value]) => value !== ''));
  query.set('limit', '100');
  const { data, error } = useLoad(
    () => get<{ entries: Entry[] }>(`/audit?${query.toString()}`),
    [query.toString()],
  );
  const search = (event: FormEvent) => {
    event.preventDefault();
    setApplied(filters);
  };

  return (
    <section>
      <div className="screen-head">
        <h1>Audit log</h1>
      </div>
      <p className="lead">Every sign-in and change, hash-chained so that an edit or a deletion shows.</p>
      <form onSubmit={search} className="filters">
        {(['actor', 'action'] as const).map((name) => (
          <TextField
            key={name}
            label={name}
            value={filters[name]}
            onChange={(event) => setFilters({ ...filters, [name]: event.target.value })}
          />
        ))}
        <SelectField
          label="outcome"
          value={filters.outcome}
          onChange={(event) => setFilters({ ...filters, outcome: event.target.value })}
          options={[{ value: '', label: 'any' }, 'success', 'failure', 'rejected']}
        />
        <Button type="submit" icon={<Filter size={16} />}>
          Filter
        </Button>
      </form>
      <ErrorMessage text={error} />
      <DataTable
        caption={`${data?.entries.length ?? 0} entries, newest first`}
        columns={columns}
        rows={data?.entries ?? []}
        rowId={(entry) => String(entry.seq)}
        pageSize={25}
        empty={
          data && (
            <EmptyState icon={<ScrollText size={28} />} title="No entry matches these filters.">
              <p>Clear a filter, or check the spelling of the action (for example auth.login).</p>
            </EmptyState>
          )
        }
      />
    </section>
  );
}
