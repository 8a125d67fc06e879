/**
 * @module The repository a project's git routes work on, found once per request from the
 * project's real `.git` and then pinned (`GIT_DIR`, `GIT_WORK_TREE`) for every git command, so
 * nothing written into the project (a planted bare repository: `HEAD`, `objects/`, a `config`
 * with a `filter.*.clean` command) is ever taken for it. A project may be a subfolder of its
 * repository (a monorepo package): `prefix` says which, and the routes limit themselves to it.
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { gitError } from './git-errors.js';
import { GitFailure, type GitRunOptions, runGit } from './run-git.js';

export interface ProjectRepository {
  /** The canonical project folder: git's working directory, client paths are relative to it. */
  root: string;
  gitDir: string;
  /** The repository's top level (the project folder or one of its parents). */
  workTree: string;
  /** The project folder below the top level with a trailing `/` (`pkg1/`), `''` at the top. */
  prefix: string;
}

const notRepository = () =>
  new ApiError('NOT_A_GIT_REPOSITORY', 'the project folder is not a git repository');

export async function openProjectRepository(root: string): Promise<ProjectRepository> {
  let output: string;
  try {
    // safe.bareRepository=explicit (run-git.ts) makes git refuse a bare repository it would discover.
    output = await runGit(root, ['rev-parse', '--absolute-git-dir', '--show-toplevel']);
  } catch (error) {
    const text = error instanceof GitFailure ? error.stderr.toLowerCase() : '';
    if (
      text.includes('not a git repository') ||
      text.includes('bare repository') ||
      text.includes('work tree')
    )
      throw notRepository();
    throw gitError(error);
  }
  const lines = output.split('\n');
  if (lines.length !== 3 || lines[2] !== '')
    throw new ApiError('GIT_FAILED', 'repository paths holding line breaks are not supported');
  const [gitDir, workTree] = lines as [string, string];
  await requireDotGit(workTree, gitDir);
  const relative = path.relative(workTree, root);
  if (relative.startsWith('..') || path.isAbsolute(relative)) throw notRepository();
  return { root, gitDir, workTree, prefix: relative === '' ? '' : `${relative.split(path.sep).join('/')}/` };
}

/**
 * The top level must hold the `.git` git found: a folder that is the git dir itself, or a
 * `gitfile` (linked worktrees, submodules). Without it the repository came from somewhere else
 * (an older git ignoring safe.bareRepository), and is not used.
 */
async function requireDotGit(workTree: string, gitDir: string): Promise<void> {
  const dotGit = path.join(workTree, '.git');
  const stats = await lstat(dotGit).catch(() => null);
  if (stats?.isFile()) return;
  if (stats?.isDirectory() && (await realpath(dotGit)) === (await realpath(gitDir))) return;
  throw notRepository();
}

/** Runs git on the pinned repository, in the project folder. */
export function runInRepository(
  repository: ProjectRepository,
  args: readonly string[],
  options: GitRunOptions = {},
): Promise<string> {
  return runGit(repository.root, args, { ...options, repository });
}

/** Refuses what changes the whole work tree when the project is only part of it. */
export function requireTopLevel(repository: ProjectRepository, what: string): void {
  if (repository.prefix !== '')
    throw new ApiError(
      'GIT_NOT_REPOSITORY_ROOT',
      `${what} changes every folder of the repository, and this project is only its folder ${repository.prefix}`,
    );
}
