/**
 * The rules firewarden manages, as the kernel has them (read through the agent), filterable;
 * admins mark rules for deletion and add new ones into the draft, then review it. Below, the
 * rules other tools hold, read-only (the search filters them too).
 */

import { navigate } from '@suite/web-ui';
import { useState } from 'react';
import { get } from '../api';
import type { Action, RulesAnswer } from '../types';
import { useLoad } from '../use-load';
import { ForeignRules } from './ForeignRules';
import { ErrorMessage } from './Messages';
import { RuleTable } from './RuleTable';

interface Props {
  isAdmin: boolean;
  draft: Action[];
  setDraft: (actions: Action[]) => void;
}

export function Rules({ isAdmin, draft, setDraft }: Props) {
  const { data, error } = useLoad(() => get<RulesAnswer>('/firewall/rules'));
  const [direction, setDirection] = useState('');
  const [action, setAction] = useState('');
  const [text, setText] = useState('');

  const deleted = new Set(draft.flatMap((entry) => (entry.op === 'delete' ? [entry.position] : [])));
  const rows = (data?.rules ?? [])
    .map((rule, index) => ({ rule, position: index + 1 }))
    .filter(
      ({ rule }) =>
        (direction === '' || rule.direction === direction) &&
        (action === '' || rule.action === action) &&
        (text === '' || JSON.stringify(Object.values(rule)).toLowerCase().includes(text.toLowerCase())),
    );
  const foreign = (data?.foreign ?? []).filter(
    (line) => text === '' || JSON.stringify(Object.values(line)).toLowerCase().includes(text.toLowerCase()),
  );
  const toggleDelete = (position: number) =>
    setDraft(
      deleted.has(position)
        ? draft.filter((entry) => !(entry.op === 'delete' && entry.position === position))
        : [...draft, { op: 'delete', position }],
    );

  return (
    <section>
      <h1>Rules</h1>
      <ErrorMessage text={error} />
      <fieldset className="filters">
        <legend>Filters</legend>
        <label>
          Direction
          <select value={direction} onChange={(event) => setDirection(event.target.value)}>
            <option value="">any</option>
            <option value="in">in</option>
            <option value="out">out</option>
            <option value="forward">forward</option>
          </select>
        </label>
        <label>
          Action
          <select value={action} onChange={(event) => setAction(event.target.value)}>
            <option value="">any</option>
            <option value="allow">allow</option>
            <option value="deny">deny</option>
            <option value="reject">reject</option>
            <option value="limit">limit</option>
          </select>
        </label>
        <label>
          Search
          <input type="search" value={text} onChange={(event) => setText(event.target.value)} />
        </label>
      </fieldset>
      <RuleTable
        caption={`${rows.length} of ${data?.rules.length ?? 0} rules`}
        rows={rows}
        extra={
          isAdmin
            ? ({ position }) => (
                <button
                  type="button"
                  aria-pressed={deleted.has(position)}
                  onClick={() => toggleDelete(position)}
                >
                  {deleted.has(position) ? 'Keep' : 'Delete'}
                </button>
              )
            : undefined
        }
      />
      {isAdmin && (
        <div className="actions">
          <button type="button" onClick={() => navigate('/rules/new')}>
            Add rule
          </button>
          <button
            type="button"
            className="primary"
            disabled={draft.length === 0}
            onClick={() => navigate('/review')}
          >
            Review changes ({draft.length})
          </button>
        </div>
      )}
      <h2>Rules of other tools</h2>
      <ForeignRules rules={foreign} total={data?.foreign.length ?? 0} />
    </section>
  );
}
