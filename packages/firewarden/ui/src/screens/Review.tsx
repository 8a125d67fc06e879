/**
 * The draft before it is applied: the rules it removes and the rules it adds (a diff against the
 * kernel's current list). Apply sends one transaction with safe apply; a lockout risk (SSH or
 * this management port cut from this session's address) is shown with its reasons and needs the
 * acknowledge checkbox before the transaction is sent again.
 */

import { navigate } from '@suite/web-ui';
import { useState } from 'react';
import { ApiFailure, describeError, get, post } from '../api';
import type { Action, Conflict, Rule } from '../types';
import { useLoad } from '../use-load';
import { ErrorMessage } from './Messages';
import { RuleTable } from './RuleTable';

export function Review({ draft, setDraft }: { draft: Action[]; setDraft: (actions: Action[]) => void }) {
  const { data, error } = useLoad(() => get<{ rules: Rule[] }>('/firewall/rules'));
  const [lockout, setLockout] = useState<Conflict[] | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const current = data?.rules ?? [];
  const removed = draft.flatMap((entry) =>
    entry.op === 'delete' && current[entry.position - 1]
      ? [{ rule: current[entry.position - 1]!, position: entry.position }]
      : [],
  );
  const added = draft.flatMap((entry) => (entry.op === 'add' ? [{ rule: entry.rule }] : []));
  // Deletions by position go first, highest first, so each position still names the rule shown.
  const actions: Action[] = [
    ...draft
      .filter((entry) => entry.op === 'delete')
      .sort((a, b) => (b as { position: number }).position - (a as { position: number }).position),
    ...draft.filter((entry) => entry.op === 'add'),
  ];

  const apply = async () => {
    setBusy(true);
    setProblem(null);
    try {
      await post('/firewall/transactions', { actions, safe_apply: true, acknowledge_lockout: acknowledged });
      setDraft([]);
      navigate('/');
    } catch (failure) {
      if (failure instanceof ApiFailure && failure.code === 'FW_LOCKOUT_RISK') {
        setLockout((failure.details.conflicts as Conflict[]) ?? []);
      } else setProblem(describeError(failure));
    }
    setBusy(false);
  };

  return (
    <section>
      <h1>Review changes</h1>
      <ErrorMessage text={error} />
      {draft.length === 0 && <p>The draft is empty.</p>}
      <h2>Removed</h2>
      {removed.length === 0 ? <p>No rule removed.</p> : <RuleTable caption="Rules removed" rows={removed} />}
      <h2>Added</h2>
      {added.length === 0 ? <p>No rule added.</p> : <RuleTable caption="Rules added" rows={added} />}
      {lockout && (
        <div className="lockout" role="alert">
          <h2>Lockout risk</h2>
          <ul>
            {lockout.map((conflict) => (
              <li key={conflict.code}>{conflict.message}</li>
            ))}
          </ul>
          <label className="check">
            <input
              type="checkbox"
              checked={acknowledged}
              onChange={(event) => setAcknowledged(event.target.checked)}
            />
            I understand this change may cut my own access
          </label>
        </div>
      )}
      <ErrorMessage text={problem} />
      <div className="actions">
        <button type="button" onClick={() => navigate('/rules')}>
          Back to rules
        </button>
        <button type="button" onClick={() => setDraft([])} disabled={draft.length === 0}>
          Discard draft
        </button>
        <button
          type="button"
          className="primary"
          onClick={apply}
          disabled={busy || draft.length === 0 || (lockout !== null && !acknowledged)}
        >
          Apply with safe apply
        </button>
      </div>
    </section>
  );
}
