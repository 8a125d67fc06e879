/**
 * The audit trail (owners and admins: `audit.view`): newest entries first, filtered by actor,
 * action and outcome as `GET /audit` allows, more loaded with its `next_before` cursor; and the
 * verdict of `GET /audit/verify` on the hash chain (intact, or broken at a sequence number).
 * Anyone else sees the daemon's 403 message.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { type FormEvent, useState } from 'react';
import { api, query } from '../api.js';
import { ErrorLine } from '../components/Notices.js';
import { type AuditEntry, type ChainVerdict, unlessDenied, when } from '../types-admin.js';

interface Filters {
  actor: string;
  action: string;
  outcome: string;
}

const noFilters: Filters = { actor: '', action: '', outcome: '' };
const pageSize = 50;

const reasons: Record<string, string> = {
  missing: 'an entry is missing',
  prev_hash: "an entry does not link to the previous entry's hash",
  hash: 'an entry was changed after it was written',
  detail: 'an entry was changed after it was written',
};

function page(filters: Filters, before?: number) {
  const search = query({
    limit: pageSize,
    before,
    actor: filters.actor || undefined,
    action: filters.action || undefined,
    outcome: filters.outcome || undefined,
  });
  return api<{ entries: AuditEntry[]; next_before: number | null }>('GET', `/audit${search}`);
}

export function AuditScreen() {
  const [filters, setFilters] = useState<Filters>(noFilters);
  const [form, setForm] = useState<Filters>(noFilters);
  const first = useLoad(() => unlessDenied(() => page(filters)), [filters]);
  const verdict = useLoad(() => unlessDenied(() => api<ChainVerdict>('GET', '/audit/verify')), []);
  const [more, setMore] = useState<{ entries: AuditEntry[]; next_before: number | null }>();
  const [message, setMessage] = useState<string>();

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setMore(undefined);
    setFilters({ ...form });
    first.reload();
    verdict.reload();
  };
  const loadMore = async (before: number) => {
    setMessage(undefined);
    try {
      const next = await page(filters, before);
      setMore((current) => ({
        entries: [...(current?.entries ?? []), ...next.entries],
        next_before: next.next_before,
      }));
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  if (first.data?.denied)
    return (
      <p role="alert" className="error">
        Only owners and admins read the audit trail: {first.data.denied}.
      </p>
    );
  const firstPage = first.data?.value;
  const entries = [...(firstPage?.entries ?? []), ...(more?.entries ?? [])];
  const nextBefore = more ? more.next_before : firstPage?.next_before;
  const chain = verdict.data?.value;
  return (
    <section aria-labelledby="audit-heading">
      <h2 id="audit-heading">Audit</h2>
      <div className="row chain" aria-live="polite">
        {chain === undefined ? (
          <span className="muted">{verdict.error ?? 'Checking the hash chain…'}</span>
        ) : chain.ok ? (
          <span data-testid="chain-verdict">
            <Badge tone="ok">Chain intact: {chain.count} entries</Badge>
          </span>
        ) : (
          <span data-testid="chain-verdict">
            <Badge tone="danger">
              Chain broken at seq {chain.brokenSeq}: {reasons[chain.reason] ?? chain.reason}
            </Badge>
          </span>
        )}
        <button type="button" onClick={verdict.reload}>
          Verify again
        </button>
      </div>
      <form onSubmit={apply} className="inline-form" aria-label="Audit filters">
        <label>
          Actor
          <input value={form.actor} onChange={(e) => setForm({ ...form, actor: e.target.value })} />
        </label>
        <label>
          Action
          <input
            value={form.action}
            onChange={(e) => setForm({ ...form, action: e.target.value })}
            placeholder="POST /tokens"
          />
        </label>
        <label>
          Outcome
          <select value={form.outcome} onChange={(e) => setForm({ ...form, outcome: e.target.value })}>
            <option value="">any</option>
            <option value="success">success</option>
            <option value="denied">denied</option>
            <option value="failure">failure</option>
          </select>
        </label>
        <button type="submit">Filter</button>
      </form>
      <ErrorLine message={message ?? first.error} />
      {!first.data && !first.error && <Skeleton lines={3} label="Loading the audit trail" />}
      <ol className="list audit" aria-label="Audit entries">
        {entries.map((entry) => (
          <li key={entry.seq}>
            <span className="muted">#{entry.seq}</span>
            <span className="muted">{when(entry.at)}</span>
            <strong>{entry.actor}</strong>
            <code>{entry.action}</code>
            {entry.target !== `/api/v1${entry.action.slice(entry.action.indexOf(' ') + 1)}` && (
              <span className="target">{entry.target}</span>
            )}
            <Badge tone={entry.outcome === 'success' ? 'neutral' : 'danger'}>{entry.outcome}</Badge>
            {typeof entry.detail?.status === 'number' && (
              <span className="muted">HTTP {entry.detail.status}</span>
            )}
            {entry.client && <span className="muted">from {entry.client}</span>}
          </li>
        ))}
        {firstPage && entries.length === 0 && <li className="muted">No entry matches.</li>}
      </ol>
      {nextBefore != null && (
        <button type="button" onClick={() => loadMore(nextBefore)}>
          Load older entries
        </button>
      )}
    </section>
  );
}
