/**
 * @module The git routes that change a repository: stage (and unstage), commit, create a
 * branch, switch branch. Paths were checked inside the project root by the caller.
 */
import { withGitErrors } from './git-errors.js';
import { checkRefName } from './ref-name.js';
import { runGit } from './run-git.js';

/** `git add --all` so deletions are staged too; `restore --staged` to take paths back out. */
export function gitStage(root: string, paths: readonly string[], unstage: boolean): Promise<void> {
  const args = unstage ? ['restore', '--staged', '--'] : ['add', '--all', '--'];
  return withGitErrors(async () => {
    await runGit(root, [...args, ...paths]);
  });
}

export interface CommitIdentity {
  name: string;
  email: string;
}

/**
 * Commits what is staged. The repository's (or the user's global) git identity is used when set;
 * otherwise the signed-in daemon user signs the commit, so a fresh machine can still commit.
 */
export function gitCommit(root: string, message: string, fallback: CommitIdentity) {
  return withGitErrors(async () => {
    const configured = (await runGit(root, ['config', '--get', 'user.email']).catch(() => '')).trim();
    const env: Record<string, string> = configured
      ? {}
      : {
          GIT_AUTHOR_NAME: fallback.name,
          GIT_AUTHOR_EMAIL: fallback.email,
          GIT_COMMITTER_NAME: fallback.name,
          GIT_COMMITTER_EMAIL: fallback.email,
        };
    await runGit(root, ['commit', '--no-verify', '--cleanup=strip', '-m', message], { env });
    const hash = (await runGit(root, ['rev-parse', 'HEAD'])).trim();
    return { hash };
  });
}

export function gitCreateBranch(root: string, name: string, startPoint?: string) {
  checkRefName(name);
  if (startPoint !== undefined) checkRefName(startPoint, 'start point');
  return withGitErrors(async () => {
    const args = ['branch', '--end-of-options', name];
    if (startPoint !== undefined) args.push(startPoint);
    await runGit(root, args);
    const oid = (
      await runGit(root, ['rev-parse', '--verify', '--end-of-options', `refs/heads/${name}`])
    ).trim();
    return { name, oid };
  });
}

/** Refuses (GIT_DIRTY_WORKTREE) rather than carrying over changes git says would be lost. */
export function gitSwitch(root: string, branch: string) {
  checkRefName(branch);
  return withGitErrors(async () => {
    await runGit(root, ['switch', '--no-guess', '--end-of-options', branch]);
    return { branch };
  });
}
