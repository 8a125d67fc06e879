/**
 * @module Tests: a transaction's actions turn the current rules into the list to apply, or report
 * every bad action by path and change nothing.
 */
import { describe, expect, test } from 'vitest';
import { applyActions } from '../../src/engine/transaction-actions.js';
import { rules } from './support/rules.js';

const [ssh, web, dns] = rules([
  { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' },
  { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '443' },
  { direction: 'in', action: 'deny', protocol: 'udp', destination_port: '53' },
]);

describe('applyActions', () => {
  test('add (appended or at a position), delete by rule or position, update, move', () => {
    const input = [
      { op: 'add', rule: { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '443' } },
      {
        op: 'add',
        rule: { direction: 'in', action: 'deny', protocol: 'udp', destination_port: '53' },
        position: 1,
      },
      { op: 'delete', rule: { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' } },
      {
        op: 'move',
        rule: { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '443' },
        position: 1,
      },
      {
        op: 'update',
        position: 2,
        rule: { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' },
      },
    ];
    expect(applyActions([ssh!], input)).toEqual({ ok: true, rules: [web, ssh] });
    expect(applyActions([ssh!, web!, dns!], [{ op: 'delete', position: 2 }])).toEqual({
      ok: true,
      rules: [ssh, dns],
    });
  });

  test('every bad action is reported with its path', () => {
    const result = applyActions(
      [ssh!],
      [
        { op: 'add' },
        { op: 'flush' },
        { op: 'delete', rule: { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '80' } },
        { op: 'update', position: 5, rule: { direction: 'in', action: 'allow', protocol: 'tcp' } },
        { op: 'add', rule: { direction: 'in', action: 'allow', protocol: 'tcp', source: 'nope' }, extra: 1 },
        'add',
      ],
    );
    expect(result.ok || result.errors.map((e) => `${e.path}:${e.code}`)).toEqual([
      'actions.0.rule:required',
      'actions.1.op:invalid_value',
      'actions.2.rule:not_found',
      'actions.3.position:invalid_position',
      'actions.4.extra:unknown_field',
      'actions.4.rule.source:invalid_address',
      'actions.5:invalid_type',
    ]);
    expect(applyActions([], { actions: [] }).ok).toBe(false);
  });
});
