/**
 * @module Tests: the UI's rule-by-rule alignment of two rule lists (a restore point and the rules
 * now): identical rules in order stay "same", a rule edited in place is "changed", and the rest
 * is "removed" or "added", with each rule's position in its own list; past the search bound the
 * middle of the lists is paired in order instead of searched.
 */
import { describe, expect, test } from 'vitest';
import { alignRules } from '../../ui/src/screens/rule-alignment.js';
import type { Rule } from '../../ui/src/types.js';

const port = (destination_port: string, action = 'allow'): Rule => ({
  direction: 'in',
  action,
  protocol: 'tcp',
  destination_port,
});
/** Each row as `kind before-position after-position` (`-` where a side has no rule). */
const shape = (before: Rule[], after: Rule[]) =>
  alignRules(before, after).map(
    (row) =>
      `${row.kind} ${'before' in row ? row.before.position : '-'} ${'after' in row ? row.after.position : '-'}`,
  );

describe('rule alignment', () => {
  test('identical lists are the same rule for rule, whatever order a rule lists its fields in', () => {
    const reordered = { destination_port: '22', protocol: 'tcp', action: 'allow', direction: 'in' } as Rule;
    expect(shape([port('22'), port('80')], [reordered, port('80')])).toEqual(['same 1 1', 'same 2 2']);
  });

  test('a rule added, one removed and one edited in place', () => {
    const before = [port('22'), port('25'), port('80'), port('443')];
    const after = [port('22'), port('80', 'deny'), port('443'), port('8080')];
    expect(shape(before, after)).toEqual(['same 1 1', 'changed 2 2', 'removed 3 -', 'same 4 3', 'added - 4']);
  });

  test('a rule moved is removed where it was and added where it is', () => {
    expect(shape([port('1'), port('2'), port('3')], [port('2'), port('3'), port('1')])).toEqual([
      'removed 1 -',
      'same 2 1',
      'same 3 2',
      'added - 3',
    ]);
  });

  test('either side empty', () => {
    expect(shape([], [port('22')])).toEqual(['added - 1']);
    expect(shape([port('22')], [])).toEqual(['removed 1 -']);
    expect(shape([], [])).toEqual([]);
  });

  test('past the search bound the common head and tail still match and the middle is paired in order', () => {
    const many = (prefix: string) => Array.from({ length: 2_100 }, (_, index) => port(`${prefix}${index}`));
    const before = [port('22'), ...many('1'), port('443')];
    const after = [port('22'), ...many('2').slice(0, 2_099), port('443')];
    const rows = shape(before, after);
    expect(rows[0]).toBe('same 1 1');
    expect(rows.at(-1)).toBe('same 2102 2101');
    expect(rows.filter((row) => row.startsWith('changed'))).toHaveLength(2_099);
    expect(rows.filter((row) => row.startsWith('removed'))).toEqual(['removed 2101 -']);
  });
});
