/**
 * @module Parser of `git status --porcelain=v2 --branch -z` (git-status(1), "Porcelain Format
 * Version 2"). Records are NUL-terminated and paths are never quoted, so fields are cut by
 * counting spaces from the left and the path is the rest of the record.
 */

type StatusKind = 'changed' | 'renamed' | 'copied' | 'unmerged' | 'untracked' | 'ignored';

export interface StatusEntry {
  path: string;
  /** Source of a rename or copy. */
  orig_path?: string;
  kind: StatusKind;
  /** Index (staged) status letter; `.` for unchanged, as git writes it. */
  index: string;
  /** Work-tree (unstaged) status letter. */
  worktree: string;
}

interface BranchInfo {
  /** Branch name, or null when HEAD is detached. */
  head: string | null;
  /** Commit id of HEAD, or null before the first commit. */
  oid: string | null;
  upstream: string | null;
  ahead: number;
  behind: number;
}

export interface GitStatus {
  branch: BranchInfo;
  entries: StatusEntry[];
  clean: boolean;
}

/** Spaces before the path in each record type (the path itself may hold spaces). */
const fieldsBeforePath = { '1': 8, '2': 9, u: 10 } as const;

export function parsePorcelainV2(output: string): GitStatus {
  const branch: BranchInfo = { head: null, oid: null, upstream: null, ahead: 0, behind: 0 };
  const entries: StatusEntry[] = [];
  let start = 0;
  while (start < output.length) {
    let end = output.indexOf('\0', start);
    if (end === -1) end = output.length;
    const record = output.slice(start, end);
    start = end + 1;
    const type = record[0];
    if (type === '#') {
      readHeader(record, branch);
    } else if (type === '?' || type === '!') {
      entries.push({
        path: record.slice(2),
        kind: type === '?' ? 'untracked' : 'ignored',
        index: type,
        worktree: type,
      });
    } else if (type === '1' || type === '2' || type === 'u') {
      const pathStart = afterSpaces(record, fieldsBeforePath[type]);
      const entry: StatusEntry = {
        path: record.slice(pathStart),
        kind: type === '1' ? 'changed' : type === 'u' ? 'unmerged' : 'renamed',
        index: record[2] ?? '.',
        worktree: record[3] ?? '.',
      };
      if (type === '2') {
        // The 9th field is <X><score> with X = R (rename) or C (copy); the source path follows as its own record.
        const scoreField = record.slice(afterSpaces(record, 8), pathStart - 1);
        entry.kind = scoreField.startsWith('C') ? 'copied' : 'renamed';
        let origEnd = output.indexOf('\0', start);
        if (origEnd === -1) origEnd = output.length;
        entry.orig_path = output.slice(start, origEnd);
        start = origEnd + 1;
      }
      entries.push(entry);
    }
  }
  return { branch, entries, clean: entries.every((entry) => entry.kind === 'ignored') };
}

function readHeader(record: string, branch: BranchInfo): void {
  const space = record.indexOf(' ', 2);
  if (space === -1) return;
  const key = record.slice(2, space);
  const value = record.slice(space + 1);
  if (key === 'branch.oid') branch.oid = value === '(initial)' ? null : value;
  else if (key === 'branch.head') branch.head = value === '(detached)' ? null : value;
  else if (key === 'branch.upstream') branch.upstream = value;
  else if (key === 'branch.ab') {
    const [ahead, behind] = value.split(' ');
    branch.ahead = Math.abs(Number.parseInt(ahead ?? '0', 10)) || 0;
    branch.behind = Math.abs(Number.parseInt(behind ?? '0', 10)) || 0;
  }
}

/** Index just after the `count`-th space of `record`. */
function afterSpaces(record: string, count: number): number {
  let index = -1;
  for (let seen = 0; seen < count; seen++) {
    index = record.indexOf(' ', index + 1);
    if (index === -1) return record.length;
  }
  return index + 1;
}
