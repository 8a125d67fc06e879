/**
 * Restore points (the agent's): create one with a name, compare two (the API gives each point's
 * metadata and the SHA-256 of its saved state, so the comparison says whether the two saved
 * firewalls are identical), restore one after a confirm step.
 */
import { type FormEvent, useState } from 'react';
import { describeError, get, post } from '../api';
import type { RestorePoint } from '../types';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { DataTable } from './DataTable';
import { ErrorMessage, StatusMessage } from './Messages';

export function RestorePoints({ isAdmin }: { isAdmin: boolean }) {
  const { data, error, reload } = useLoad(() => get<{ snapshots: RestorePoint[] }>('/firewall/snapshots'));
  const [name, setName] = useState('');
  const [selected, setSelected] = useState<string[]>([]);
  const [restoring, setRestoring] = useState<string | null>(null);
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
      return `Restore point ${snapshot.note ?? snapshot.id} created.`;
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
  const compared = selected.length === 2 ? selected.map((id) => points.find((point) => point.id === id)) : [];

  return (
    <section>
      <h1>Restore points</h1>
      <ErrorMessage text={error} />
      <StatusMessage text={message} />
      {isAdmin && (
        <form onSubmit={create} className="inline">
          <label htmlFor="point-name">Name</label>
          <input
            id="point-name"
            value={name}
            maxLength={200}
            onChange={(event) => setName(event.target.value)}
          />
          <button type="submit">Create restore point</button>
        </form>
      )}
      <DataTable
        caption={`${points.length} restore points, newest first (tick two to compare)`}
        headers={['Compare', 'Name', 'Kind', 'Created', 'State hash', ...(isAdmin ? ['Restore'] : [])]}
      >
        {points.map((point) => (
          <tr key={point.id}>
            <td>
              <input
                type="checkbox"
                aria-label={`compare ${point.note ?? point.id}`}
                checked={selected.includes(point.id)}
                onChange={() => toggle(point.id)}
              />
            </td>
            <td>{point.note ?? point.id}</td>
            <td>{point.kind}</td>
            <td>{formatTime(point.created_at)}</td>
            <td className="hash">{point.hash.slice(0, 12)}</td>
            {isAdmin && (
              <td>
                {restoring === point.id ? (
                  <>
                    <button type="button" className="danger" onClick={() => restore(point.id)}>
                      Yes, restore {point.note ?? 'it'}
                    </button>{' '}
                    <button type="button" onClick={() => setRestoring(null)}>
                      Cancel
                    </button>
                  </>
                ) : (
                  <button type="button" onClick={() => setRestoring(point.id)}>
                    Restore
                  </button>
                )}
              </td>
            )}
          </tr>
        ))}
      </DataTable>
      {compared.length === 2 && compared[0] && compared[1] && (
        <section className="compare" aria-label="Comparison">
          <h2>Comparison</h2>
          <p data-testid="compare-result">
            {compared[0].hash === compared[1].hash
              ? 'The two restore points hold the same firewall state.'
              : 'The two restore points hold different firewall states.'}
          </p>
          <dl className="facts">
            {compared.map((point) => (
              <div key={point!.id}>
                <dt>{point!.note ?? point!.id}</dt>
                <dd>
                  {point!.kind}, {formatTime(point!.created_at)}, hash {point!.hash}
                </dd>
              </div>
            ))}
          </dl>
        </section>
      )}
    </section>
  );
}
