/**
 * @module Tests: the porcelain v2 parser on records written as git-status(1) documents them.
 */
import { describe, expect, test } from 'vitest';
import { parsePorcelainV2 } from '../../src/git/porcelain-v2.js';

const oid = 'a'.repeat(40);

describe('parsePorcelainV2', () => {
  test('branch headers, ordinary, renamed, unmerged, untracked and ignored records', () => {
    const records = [
      `# branch.oid ${oid}`,
      '# branch.head feature/x',
      '# branch.upstream origin/feature/x',
      '# branch.ab +3 -1',
      `1 .M N... 100644 100644 100644 ${oid} ${oid} dir/with space.txt`,
      `2 R. N... 100644 100644 100644 ${oid} ${oid} R100 new name.txt`,
      'old name.txt',
      `2 C. N... 100644 100644 100644 ${oid} ${oid} C75 copy.txt`,
      'source.txt',
      `u UU N... 100644 100644 100644 100644 ${oid} ${oid} ${oid} clash.txt`,
      '? new file.txt',
      '! build/',
    ];
    const status = parsePorcelainV2(`${records.join('\0')}\0`);
    expect(status.branch).toEqual({
      head: 'feature/x',
      oid,
      upstream: 'origin/feature/x',
      ahead: 3,
      behind: 1,
    });
    expect(status.entries).toEqual([
      { path: 'dir/with space.txt', kind: 'changed', index: '.', worktree: 'M' },
      { path: 'new name.txt', orig_path: 'old name.txt', kind: 'renamed', index: 'R', worktree: '.' },
      { path: 'copy.txt', orig_path: 'source.txt', kind: 'copied', index: 'C', worktree: '.' },
      { path: 'clash.txt', kind: 'unmerged', index: 'U', worktree: 'U' },
      { path: 'new file.txt', kind: 'untracked', index: '?', worktree: '?' },
      { path: 'build/', kind: 'ignored', index: '!', worktree: '!' },
    ]);
    expect(status.clean).toBe(false);
  });

  test('an initial, detached or clean repository', () => {
    expect(parsePorcelainV2('# branch.oid (initial)\0# branch.head (detached)\0')).toEqual({
      branch: { head: null, oid: null, upstream: null, ahead: 0, behind: 0 },
      entries: [],
      clean: true,
    });
  });
});
