/**
 * @module A transaction's `actions` (`{op: "add" | "delete" | "update" | "move", rule?, position?}`)
 * applied to the current rule list, all or nothing: every problem of every action is reported
 * with its path (`actions.1.rule.source`), and the result is the complete list to apply as one
 * table. Positions are 1-based, as in `ufw status numbered`; `add` without one appends.
 */
import type { Rule } from './rule.js';
import { type Backend, type RuleProblem, validateRule } from './validate.js';

const actionOps = ['add', 'delete', 'update', 'move'] as const;
type ActionOp = (typeof actionOps)[number];

type ActionsResult = { ok: true; rules: Rule[] } | { ok: false; errors: RuleProblem[] };

const maxActions = 1_000;

export function applyActions(current: readonly Rule[], input: unknown, backend?: Backend): ActionsResult {
  if (!Array.isArray(input)) {
    return {
      ok: false,
      errors: [{ path: 'actions', code: 'invalid_type', message: 'must be an array of actions' }],
    };
  }
  if (input.length > maxActions) {
    return {
      ok: false,
      errors: [{ path: 'actions', code: 'too_many', message: `must hold at most ${maxActions} actions` }],
    };
  }
  const rules = [...current];
  const errors = input.flatMap((raw, index) => applyAction(rules, raw, `actions.${index}`, backend));
  return errors.length === 0 ? { ok: true, rules } : { ok: false, errors };
}

/** Applies one action to `rules` in place; returns its problems (none when it applied). */
function applyAction(rules: Rule[], raw: unknown, at: string, backend?: Backend): RuleProblem[] {
  const errors: RuleProblem[] = [];
  const problem = (field: string, code: string, message: string) => {
    errors.push({ path: field ? `${at}.${field}` : at, code, message });
    return errors;
  };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    return problem('', 'invalid_type', 'must be an action object');
  const action = raw as Record<string, unknown>;
  for (const key of Object.keys(action)) {
    if (!['op', 'rule', 'position'].includes(key)) problem(key, 'unknown_field', 'unknown field');
  }
  const op = action.op as ActionOp;
  if (!actionOps.includes(op))
    return problem('op', 'invalid_value', `must be one of ${actionOps.join(', ')}`);
  const position = action.position;
  const needsPosition = op === 'update' || op === 'move';
  if (position !== undefined || needsPosition) {
    const limit = op === 'add' || op === 'move' ? rules.length + (op === 'add' ? 1 : 0) : rules.length;
    if (!Number.isInteger(position) || (position as number) < 1 || (position as number) > limit) {
      return problem('position', 'invalid_position', `must be a rule number from 1 to ${limit}`);
    }
  }
  const index0 = (position as number | undefined) === undefined ? undefined : (position as number) - 1;
  const validated = action.rule === undefined ? undefined : validateRule(action.rule, `${at}.rule`, backend);
  if (validated && !validated.ok) return [...errors, ...validated.errors];
  const rule = validated?.ok ? validated.rule : undefined;
  if (op !== 'delete' && rule === undefined) return problem('rule', 'required', 'is required');
  switch (op) {
    case 'add':
      rules.splice(index0 ?? rules.length, 0, rule!);
      return errors;
    case 'update':
      rules[index0!] = rule!;
      return errors;
    case 'move': {
      // `rule` names the rule to move; it must exist.
      const from = rules.findIndex((r) => sameRule(r, rule!));
      if (from === -1) return problem('rule', 'not_found', 'no such rule in the current list');
      const [moved] = rules.splice(from, 1);
      rules.splice(Math.min(index0!, rules.length), 0, moved!);
      return errors;
    }
    case 'delete': {
      if (rule === undefined && index0 === undefined)
        return problem('rule', 'required', 'give the rule or its position');
      const target = rule === undefined ? index0! : rules.findIndex((r) => sameRule(r, rule));
      if (target === -1) return problem('rule', 'not_found', 'no such rule in the current list');
      rules.splice(target, 1);
      return errors;
    }
  }
}

function sameRule(a: Rule, b: Rule): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
