/**
 * Two rule lists lined up rule by rule (a restore point and the rules in force, or two points):
 * the longest run of identical rules in order stays "same"; between two such rules, what only
 * the first list has and what only the second has are paired in order as "changed" (a rule
 * edited in place), and the rest is "removed" or "added".
 */
// With its extension: the package's tests (NodeNext) import this file too.
import type { Rule } from '../types.js';

export interface Placed {
  rule: Rule;
  /** Its place (from 1) in its own list. */
  position: number;
}

export type AlignedRow =
  | { kind: 'same'; before: Placed; after: Placed }
  | { kind: 'changed'; before: Placed; after: Placed }
  | { kind: 'removed'; before: Placed }
  | { kind: 'added'; after: Placed };

/** The same rule whatever order its fields came in. */
function keyOf(rule: Rule): string {
  return JSON.stringify(Object.entries(rule).sort(([a], [b]) => a.localeCompare(b)));
}

/** Past this many cells the middle of two lists is not searched for common rules (memory). */
const maxCells = 4_000_000;

export function alignRules(before: Rule[], after: Rule[]): AlignedRow[] {
  const a = before.map(keyOf);
  const b = after.map(keyOf);
  // The common head and tail need no search: most comparisons differ in a few rules.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail++;
  const n = a.length - head - tail;
  const m = b.length - head - tail;
  // common[i][j]: the longest common run of the middles from a[head + i] and b[head + j] on.
  const search = (n + 1) * (m + 1) <= maxCells;
  const common = Array.from({ length: search ? n + 1 : 0 }, () => new Uint32Array(m + 1));
  const at = (i: number, j: number) => common[i]![j]!;
  for (let i = search ? n - 1 : -1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      common[i]![j] =
        a[head + i] === b[head + j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));

  const rows: AlignedRow[] = [];
  let removed: Placed[] = [];
  let added: Placed[] = [];
  const flush = () => {
    const paired = Math.min(removed.length, added.length);
    for (let k = 0; k < paired; k++) rows.push({ kind: 'changed', before: removed[k]!, after: added[k]! });
    for (const placed of removed.slice(paired)) rows.push({ kind: 'removed', before: placed });
    for (const placed of added.slice(paired)) rows.push({ kind: 'added', after: placed });
    removed = [];
    added = [];
  };
  const place = (list: Rule[], index: number): Placed => ({ rule: list[index]!, position: index + 1 });
  const same = (i: number, j: number) => {
    flush();
    rows.push({ kind: 'same', before: place(before, i), after: place(after, j) });
  };

  for (let k = 0; k < head; k++) same(k, k);
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (search && i < n && j < m && a[head + i] === b[head + j]) {
      same(head + i, head + j);
      i++;
      j++;
    } else if (j >= m || (i < n && (!search || at(i + 1, j) >= at(i, j + 1)))) {
      removed.push(place(before, head + i));
      i++;
    } else {
      added.push(place(after, head + j));
      j++;
    }
  }
  for (let k = 0; k < tail; k++) same(a.length - tail + k, b.length - tail + k);
  flush();
  return rows;
}
