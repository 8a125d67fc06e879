/**
 * @module Turns a failed git run into a clear JSON error: dirty work trees, conflicts, nothing to
 * commit, unknown refs and existing branches get their own codes; the rest says what git said.
 * git runs with LC_ALL=C, so its English messages are stable enough to match.
 */
import { ApiError } from '../http/api-error.js';
import { GitFailure } from './run-git.js';

/** Longest piece of git's own message copied into an error. */
const maxMessage = 2_000;

export function gitError(error: unknown): unknown {
  if (!(error instanceof GitFailure)) return error;
  if (error.kind === 'timeout') return new ApiError('GIT_TIMEOUT', 'git took too long and was stopped');
  if (error.kind === 'output-too-large')
    return new ApiError('GIT_OUTPUT_TOO_LARGE', 'git produced more output than the daemon returns');
  if (error.kind === 'missing-binary') return new ApiError('GIT_UNAVAILABLE', 'git is not installed');
  const text = error.stderr;
  const lower = text.toLowerCase();
  if (lower.includes('not a git repository'))
    return new ApiError('NOT_A_GIT_REPOSITORY', 'the project folder is not a git repository');
  if (lower.includes('would be overwritten by'))
    return new ApiError(
      'GIT_DIRTY_WORKTREE',
      'local changes would be overwritten; commit or discard them first',
      { files: indentedPaths(text) },
    );
  if (
    lower.includes('unmerged files') ||
    lower.includes('resolve your current index first') ||
    lower.includes('unresolved conflict') ||
    lower.includes('fix conflicts') ||
    lower.includes('while merging')
  )
    return new ApiError(
      'GIT_CONFLICT',
      'the repository is in the middle of a merge with unresolved conflicts',
    );
  if (lower.includes('nothing to commit') || lower.includes('no changes added to commit'))
    return new ApiError('GIT_NOTHING_TO_COMMIT', 'nothing is staged to commit');
  if (lower.includes('pathspec') && lower.includes('did not match'))
    return new ApiError('GIT_PATH_NOT_FOUND', firstLine(text));
  if (lower.includes('already exists'))
    return new ApiError('GIT_BRANCH_EXISTS', 'a branch of that name already exists');
  if (
    lower.includes('invalid reference') ||
    lower.includes('not a valid object name') ||
    lower.includes('unknown revision') ||
    lower.includes('bad revision') ||
    lower.includes('did not match any')
  )
    return new ApiError('GIT_REF_NOT_FOUND', firstLine(text));
  if (lower.includes('is not a valid branch name')) return new ApiError('INVALID_REF_NAME', firstLine(text));
  return new ApiError('GIT_FAILED', firstLine(text));
}

/** git lists affected files one per line, indented with a tab. */
function indentedPaths(text: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith('\t'))
    .map((line) => line.slice(1))
    .slice(0, 1_000);
}

function firstLine(text: string): string {
  const line = text.split('\n').find((part) => part.trim() !== '') ?? 'git failed';
  return line.replace('fatal: ', '').replace('error: ', '').slice(0, maxMessage);
}

/** Runs git work so that a failure surfaces as the matching JSON error. */
export async function withGitErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw gitError(error);
  }
}
