/**
 * The rules firewarden manages, as the kernel has them (read through the agent), filterable;
 * admins mark rules for deletion and add new ones into the draft, then review it. Below, the
 * rules other tools hold, read-only (the search filters them too).
 */

import { navigate } from '@suite/web-ui';
import { Button, EmptyState, SelectField, TextField } from '@suite/web-ui/kit';
import { GitCompareArrows, ListPlus, ShieldOff, Trash2, Undo2 } from 'lucide-react';
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
      <div className="screen-head">
        <h1>Rules</h1>
        {isAdmin && (
          <div className="kit-actions">
            <Button icon={<ListPlus size={16} />} onClick={() => navigate('/rules/new')}>
              Add rule
            </Button>
            <Button
              variant="primary"
              icon={<GitCompareArrows size={16} />}
              disabled={draft.length === 0}
              onClick={() => navigate('/review')}
            >
              Review changes ({draft.length})
            </Button>
          </div>
        )}
      </div>
      <ErrorMessage text={error} />
      <fieldset className="filters">
        <legend>Filters</legend>
        <SelectField
          label="Direction"
          value={direction}
          onChange={(event) => setDirection(event.target.value)}
          options={[{ value: '', label: 'any' }, 'in', 'out', 'forward']}
        />
        <SelectField
          label="Action"
          value={action}
          onChange={(event) => setAction(event.target.value)}
          options={[{ value: '', label: 'any' }, 'allow', 'deny', 'reject', 'limit']}
        />
        <TextField
          label="Search"
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </fieldset>
      <RuleTable
        caption={`${rows.length} of ${data?.rules.length ?? 0} rules`}
        rows={rows}
        extra={
          isAdmin
            ? ({ position }) => (
                <Button
                  variant={deleted.has(position) ? 'default' : 'ghost'}
                  icon={deleted.has(position) ? <Undo2 size={16} /> : <Trash2 size={16} />}
                  aria-pressed={deleted.has(position)}
                  onClick={() => toggleDelete(position)}
                >
                  {deleted.has(position) ? 'Keep' : 'Delete'}
                </Button>
              )
            : undefined
        }
        empty={
          data && (
            <EmptyState
              icon={<ShieldOff size={28} />}
              title={
                data.rules.length === 0 ? 'firewarden manages no rule yet.' : 'No rule matches the filters.'
              }
            >
              {data.rules.length === 0 && (
                <p>
                  {isAdmin
                    ? 'Add one with "Add rule": templates for SSH, a web server, mail, DNS or your own address fill it in.'
                    : 'An admin adds rules; the policies on the dashboard decide what passes until then.'}
                </p>
              )}
            </EmptyState>
          )
        }
      />
      <h2>Rules of other tools</h2>
      <ForeignRules rules={foreign} total={data?.foreign.length ?? 0} />
    </section>
  );
}
