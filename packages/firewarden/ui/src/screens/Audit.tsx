/** The audit log (admin): the newest 100 entries that match the API's filters. */
import { type FormEvent, useState } from 'react';
import { get } from '../api';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { DataTable } from './DataTable';
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
      <h1>Audit log</h1>
      <form onSubmit={search} className="filters">
        {(['actor', 'action'] as const).map((name) => (
          <label key={name}>
            {name}
            <input
              value={filters[name]}
              onChange={(event) => setFilters({ ...filters, [name]: event.target.value })}
            />
          </label>
        ))}
        <label>
          outcome
          <select
            value={filters.outcome}
            onChange={(event) => setFilters({ ...filters, outcome: event.target.value })}
          >
            <option value="">any</option>
            <option value="success">success</option>
            <option value="failure">failure</option>
            <option value="rejected">rejected</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorMessage text={error} />
      <DataTable
        caption={`${data?.entries.length ?? 0} entries, newest first`}
        headers={['#', 'When', 'Actor', 'Action', 'Target', 'Outcome', 'Client']}
      >
        {(data?.entries ?? []).map((entry) => (
          <tr key={entry.seq}>
            <td>{entry.seq}</td>
            <td>{formatTime(entry.at)}</td>
            <td>{entry.actor ?? ''}</td>
            <td>{entry.action}</td>
            <td>{entry.target ?? ''}</td>
            <td>{entry.outcome}</td>
            <td>{entry.client ?? ''}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
