/**
 * @module The read-only git routes: status (porcelain v2), diff, log and branches.
 */

import { withGitErrors as git } from './git-errors.js';
import { type GitStatus, parsePorcelainV2 } from './porcelain-v2.js';
import { runGit, runGitTruncating } from './run-git.js';

export interface CommitSummary {
  hash: string;
  author_name: string;
  author_email: string;
  authored_at: string;
  subject: string;
}

export interface BranchSummary {
  name: string;
  oid: string;
  current: boolean;
  upstream: string | null;
}

export function gitStatus(root: string): Promise<GitStatus> {
  return git(async () =>
    parsePorcelainV2(
      await runGit(root, ['status', '--porcelain=v2', '--branch', '-z'], { timeoutMs: 60_000 }),
    ),
  );
}

export interface DiffOptions {
  staged: boolean;
  /** Relative path to limit the diff to. */
  path?: string;
  maxBytes: number;
}

export function gitDiff(root: string, options: DiffOptions) {
  const args = ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--patch'];
  if (options.staged) args.push('--cached');
  args.push('--');
  if (options.path !== undefined) args.push(options.path);
  return git(async () => {
    const { stdout, truncated } = await runGitTruncating(root, args, { maxBytes: options.maxBytes });
    return { diff: stdout, truncated };
  });
}

const fieldSeparator = '\x1f';
const recordSeparator = '\x1e';

export function gitLog(root: string, limit: number, ref?: string): Promise<CommitSummary[]> {
  const args = [
    'log',
    `--max-count=${limit}`,
    `--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1e`,
    '--end-of-options',
  ];
  if (ref !== undefined) args.push(ref);
  args.push('--');
  return git(async () => {
    let output: string;
    try {
      output = await runGit(root, args);
    } catch (error) {
      // A repository without commits has no history; that is an empty log, not an error.
      if (!ref && String((error as Error).message).includes('does not have any commits yet')) return [];
      throw error;
    }
    return output
      .split(recordSeparator)
      .map((record) => record.replace(/^\n/, ''))
      .filter((record) => record !== '')
      .map((record) => {
        const [hash, authorName, authorEmail, authoredAt, subject] = record.split(fieldSeparator);
        return {
          hash: hash ?? '',
          author_name: authorName ?? '',
          author_email: authorEmail ?? '',
          authored_at: authoredAt ?? '',
          subject: subject ?? '',
        };
      });
  });
}

export function gitBranches(root: string): Promise<BranchSummary[]> {
  const format = '%(refname:short)%00%(objectname)%00%(HEAD)%00%(upstream:short)';
  return git(async () => {
    const output = await runGit(root, ['for-each-ref', `--format=${format}`, 'refs/heads']);
    return output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [name, oid, head, upstream] = line.split('\0');
        return { name: name ?? '', oid: oid ?? '', current: head === '*', upstream: upstream || null };
      });
  });
}
