/**
 * @module The git routes that change a repository: stage (and unstage), commit, create a
 * branch, switch branch. Paths were checked inside the project root by the caller and are
 * relative to it, so staging stays in the project folder. A project that is a subfolder of its
 * repository commits only its folder (git/folder-commit.ts) and cannot switch branch.
 */
import { commitFolder } from './folder-commit.js';
import { withGitErrors } from './git-errors.js';
import { type ProjectRepository, requireTopLevel, runInRepository } from './project-repository.js';
import { checkRefName } from './ref-name.js';

/** `git add --all` so deletions are staged too; `restore --staged` to take paths back out. */
export function gitStage(
  repository: ProjectRepository,
  paths: readonly string[],
  unstage: boolean,
): Promise<void> {
  const args = unstage ? ['restore', '--staged', '--'] : ['add', '--all', '--'];
  return withGitErrors(async () => {
    await runInRepository(repository, [...args, ...paths]);
  });
}

export interface CommitIdentity {
  name: string;
  email: string;
}

/** No environment when git has an identity configured; else `fallback` as author and committer. */
export async function identityEnvironment(
  repository: ProjectRepository,
  fallback: CommitIdentity,
): Promise<Record<string, string>> {
  const configured = (
    await runInRepository(repository, ['config', '--get', 'user.email']).catch(() => '')
  ).trim();
  if (configured) return {};
  return {
    GIT_AUTHOR_NAME: fallback.name,
    GIT_AUTHOR_EMAIL: fallback.email,
    GIT_COMMITTER_NAME: fallback.name,
    GIT_COMMITTER_EMAIL: fallback.email,
  };
}

/**
 * Commits what is staged. The repository's (or the user's global) git identity is used when set;
 * otherwise the signed-in daemon user signs the commit, so a fresh machine can still commit.
 */
export function gitCommit(repository: ProjectRepository, message: string, fallback: CommitIdentity) {
  return withGitErrors(async () => {
    const env = await identityEnvironment(repository, fallback);
    if (repository.prefix !== '') return { hash: await commitFolder(repository, message, env) };
    await runInRepository(repository, ['commit', '--no-verify', '--cleanup=strip', '-m', message], { env });
    const hash = (await runInRepository(repository, ['rev-parse', 'HEAD'])).trim();
    return { hash };
  });
}

export function gitCreateBranch(repository: ProjectRepository, name: string, startPoint?: string) {
  checkRefName(name);
  if (startPoint !== undefined) checkRefName(startPoint, 'start point');
  return withGitErrors(async () => {
    const args = ['branch', '--end-of-options', name];
    if (startPoint !== undefined) args.push(startPoint);
    await runInRepository(repository, args);
    const oid = (
      await runInRepository(repository, ['rev-parse', '--verify', '--end-of-options', `refs/heads/${name}`])
    ).trim();
    return { name, oid };
  });
}

/** Refuses (GIT_DIRTY_WORKTREE) rather than carrying over changes git says would be lost. */
export function gitSwitch(repository: ProjectRepository, branch: string) {
  checkRefName(branch);
  requireTopLevel(repository, 'switching branch');
  return withGitErrors(async () => {
    await runInRepository(repository, ['switch', '--no-guess', '--end-of-options', branch]);
    return { branch };
  });
}
