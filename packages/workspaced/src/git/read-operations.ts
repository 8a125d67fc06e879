/**
 * @module The read-only git routes: status (porcelain v2), diff, log and branches. In a project
 * that is a subfolder of its repository, status, diff and log are limited to that folder
 * (pathspec `.` from the project folder) and paths are given relative to it; branches are the
 * repository's.
 */

import { withGitErrors as git } from './git-errors.js';
import { type GitStatus, parsePorcelainV2, type StatusEntry } from './porcelain-v2.js';
import { type ProjectRepository, runInRepository } from './project-repository.js';
import { runGitTruncating } from './run-git.js';

interface CommitSummary {
  hash: string;
  author_name: string;
  author_email: string;
  authored_at: string;
  subject: string;
}

interface BranchSummary {
  name: string;
  oid: string;
  current: boolean;
  upstream: string | null;
}

/** Pathspec limiting a command to the project folder (nothing for a whole repository). */
const projectOnly = (repository: ProjectRepository) => (repository.prefix === '' ? [] : ['--', '.']);

export function gitStatus(repository: ProjectRepository): Promise<GitStatus> {
  return git(async () => {
    const status = parsePorcelainV2(
      await runInRepository(
        repository,
        ['status', '--porcelain=v2', '--branch', '-z', ...projectOnly(repository)],
        { timeoutMs: 60_000 },
      ),
    );
    if (repository.prefix === '') return status;
    const entries = status.entries.flatMap((entry) => inProject(entry, repository.prefix));
    return { ...status, entries, clean: entries.every((entry) => entry.kind === 'ignored') };
  });
}

/** Porcelain paths are relative to the top level: keep the project's, relative to the project. */
function inProject(entry: StatusEntry, prefix: string): StatusEntry[] {
  const below = (file: string) => (file.startsWith(prefix) ? file.slice(prefix.length) || '.' : undefined);
  const file = below(entry.path);
  if (file === undefined) return [];
  const { orig_path: origin, ...rest } = entry;
  const from = origin === undefined ? undefined : below(origin);
  return [from === undefined ? { ...rest, path: file } : { ...rest, path: file, orig_path: from }];
}

interface DiffOptions {
  staged: boolean;
  /** Relative path to limit the diff to. */
  path?: string;
  maxBytes: number;
}

export function gitDiff(repository: ProjectRepository, options: DiffOptions) {
  const args = ['diff', '--no-ext-diff', '--no-textconv', '--no-color', '--patch'];
  if (options.staged) args.push('--cached');
  // --relative: only changes below the project folder, named relative to it.
  if (repository.prefix !== '') args.push('--relative');
  args.push('--', options.path ?? '.');
  return git(async () => {
    const { stdout, truncated } = await runGitTruncating(repository.root, args, {
      maxBytes: options.maxBytes,
      repository,
    });
    return { diff: stdout, truncated };
  });
}

const fieldSeparator = '\x1f';
const recordSeparator = '\x1e';

export function gitLog(repository: ProjectRepository, limit: number, ref?: string): Promise<CommitSummary[]> {
  const args = [
    'log',
    `--max-count=${limit}`,
    `--format=%H%x1f%an%x1f%ae%x1f%aI%x1f%s%x1e`,
    '--end-of-options',
  ];
  if (ref !== undefined) args.push(ref);
  args.push('--');
  if (repository.prefix !== '') args.push('.');
  return git(async () => {
    let output: string;
    try {
      output = await runInRepository(repository, args);
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

export function gitBranches(repository: ProjectRepository): Promise<BranchSummary[]> {
  const format = '%(refname:short)%00%(objectname)%00%(HEAD)%00%(upstream:short)';
  return git(async () => {
    const output = await runInRepository(repository, ['for-each-ref', `--format=${format}`, 'refs/heads']);
    return output
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => {
        const [name, oid, head, upstream] = line.split('\0');
        return { name: name ?? '', oid: oid ?? '', current: head === '*', upstream: upstream || null };
      });
  });
}
