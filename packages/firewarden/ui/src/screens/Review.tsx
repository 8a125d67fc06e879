/**
 * The draft before it is applied: a diff of the rule list (each current rule kept or removed, the
 * new ones added at the end, as the transaction does), then the rules it removes and adds as tables. Apply sends one transaction with safe apply; a lockout risk (SSH or
 * this management port cut from this session's address) is shown with its reasons and needs the
 * acknowledge checkbox before the transaction is sent again.
 */

import { navigate } from '@suite/web-ui';
import { Button, EmptyState, Skeleton, useToast } from '@suite/web-ui/kit';
import { ArrowLeft, FileDiff, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { ApiFailure, describeError, get, post } from '../api';
import type { Action, Conflict, Rule } from '../types';
import { useLoad } from '../use-load';
import { LockoutWarning } from './LockoutWarning';
import { ErrorMessage } from './Messages';
import { RuleDiff } from './RuleDiff';
import { RuleTable } from './RuleTable';

export function Review({ draft, setDraft }: { draft: Action[]; setDraft: (actions: Action[]) => void }) {
  const { data, error } = useLoad(() => get<{ rules: Rule[] }>('/firewall/rules'));
  const [lockout, setLockout] = useState<Conflict[] | null>(null);
  const [acknowledged, setAcknowledged] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();

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
      toast.notify({
        title: 'Applied with safe apply',
        description: 'Confirm it on the dashboard before the countdown ends, or it is rolled back.',
        tone: 'warn',
      });
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
      <div className="screen-head">
        <h1>Review changes</h1>
      </div>
      <ErrorMessage text={error} />
      {draft.length === 0 ? (
        <EmptyState icon={<FileDiff size={28} />} title="The draft is empty.">
          <p>
            Mark rules for deletion or add new ones on the Rules screen; they are reviewed here before
            anything changes.
          </p>
        </EmptyState>
      ) : (
        <>
          <p className="lead">
            The firewall after this apply, line by line: <strong>−</strong> removed, <strong>+</strong> added.
            Safe apply rolls it back unless you confirm it on the dashboard in time.
          </p>
          {data ? (
            <RuleDiff
              current={current}
              removed={new Set(removed.map((entry) => entry.position))}
              added={added}
            />
          ) : (
            <Skeleton lines={3} label="Reading the current rules" />
          )}
        </>
      )}
      <h2>Removed</h2>
      {removed.length === 0 ? <p>No rule removed.</p> : <RuleTable caption="Rules removed" rows={removed} />}
      <h2>Added</h2>
      {added.length === 0 ? <p>No rule added.</p> : <RuleTable caption="Rules added" rows={added} />}
      {lockout && (
        <LockoutWarning
          title={<h2>Lockout risk</h2>}
          conflicts={lockout}
          acknowledged={acknowledged}
          onAcknowledge={setAcknowledged}
        />
      )}
      <ErrorMessage text={problem} />
      <div className="kit-actions">
        <Button icon={<ArrowLeft size={16} />} onClick={() => navigate('/rules')}>
          Back to rules
        </Button>
        <Button icon={<Trash2 size={16} />} onClick={() => setDraft([])} disabled={draft.length === 0}>
          Discard draft
        </Button>
        <Button
          variant="primary"
          icon={<ShieldCheck size={16} />}
          onClick={apply}
          disabled={busy || draft.length === 0 || (lockout !== null && !acknowledged)}
        >
          Apply with safe apply
        </Button>
      </div>
    </section>
  );
}
