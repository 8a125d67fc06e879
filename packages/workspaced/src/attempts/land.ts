/**
 * @module Lands an attempt's branch on its base branch without ever leaving a half-done state
 * behind. Everything is first built as objects (no work tree touched): the worktree's
 * uncommitted work as a commit on top of the branch (naming the attempt), then the landing
 * commit: `merge` (a merge commit) and `squash` (one commit) from `git merge-tree --write-tree`,
 * `rebase` by replaying the commits in a temporary detached worktree (git 2.39 has no
 * `git replay`). A conflict answers 409 LAND_CONFLICT with the paths and changes nothing: both
 * branches, the worktree (its uncommitted work included) and the project's work tree stay as
 * they were. Only then is the base branch moved: a fast-forward of the clean work tree that has
 * it checked out (409 WORKTREE_DIRTY when that work tree has changes), or a compare-and-swap of
 * the ref when none has; then the task branch takes the commit of its uncommitted work.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TaskRow } from '../db/schema.js';
import { withGitErrors } from '../git/git-errors.js';
import { parsePorcelainV2 } from '../git/porcelain-v2.js';
import { type ProjectRepository, runInRepository } from '../git/project-repository.js';
import { GitFailure } from '../git/run-git.js';
import { openWorktreeRepository } from '../git/worktree-repository.js';
import { worktreeHead, worktreeTree } from '../git/worktree-snapshot.js';
import { type CommitIdentity, identityEnvironment } from '../git/write-operations.js';
import { ApiError } from '../http/api-error.js';
import type { ReviewTarget } from './review-target.js';

export const landStrategies = ['merge', 'squash', 'rebase'] as const;
export type LandStrategy = (typeof landStrategies)[number];

interface LandRequest {
  strategy: LandStrategy;
  /** The merge or squash commit's message; a rebase keeps the branch's own messages. */
  message: string | undefined;
  removeWorktree: boolean;
  identity: CommitIdentity;
}

interface Landed {
  commit: string;
  worktree_removed: boolean;
}

export function landAttempt(target: ReviewTarget, task: TaskRow, request: LandRequest): Promise<Landed> {
  return withGitErrors(async () => {
    const { attempt, repository } = target;
    const top = { ...repository, root: repository.workTree, prefix: '' };
    const env = await identityEnvironment(repository, request.identity);
    const baseRef = `refs/heads/${attempt.base_branch}`;
    const baseTip = await revParse(top, `${baseRef}^{commit}`).catch(() => {
      throw new ApiError('GIT_REF_NOT_FOUND', `the base branch ${attempt.base_branch} no longer exists`);
    });
    const checkout = await checkoutOf(top, baseRef);
    if (checkout) await requireClean(checkout);

    const { head, tip } = await snapshotCommit(top, target, env);
    if (await isAncestor(top, tip, baseTip))
      throw new ApiError(
        'NOTHING_TO_LAND',
        `${attempt.base_branch} already holds everything of ${attempt.branch}`,
      );
    if (repository.prefix !== '') await requireInsideProject(top, repository.prefix, baseTip, tip);

    let landing: string;
    if (request.strategy === 'rebase') landing = await rebased(top, baseTip, tip, env);
    else {
      const merged = await mergedTree(top, baseTip, tip);
      landing =
        request.strategy === 'merge'
          ? await commitTree(
              top,
              merged,
              [baseTip, tip],
              request.message ?? `Merge ${attempt.branch}: ${task.title}`,
              env,
            )
          : await commitTree(
              top,
              merged,
              [baseTip],
              request.message ??
                `${task.title}\n\nTask #${task.id}, attempt #${attempt.id} (${attempt.profile}), squashed from ${attempt.branch}.`,
              env,
            );
    }

    await moveBase(top, checkout, baseRef, baseTip, landing);
    await adoptSnapshot(top, target, head, tip);
    const removed = request.removeWorktree
      ? await runInRepository(top, ['worktree', 'remove', '--end-of-options', attempt.worktree_path]).then(
          () => true,
          () => false,
        )
      : false;
    return { commit: landing, worktree_removed: removed };
  });
}

/**
 * The worktree's state as a commit: HEAD itself when nothing is uncommitted, else a new commit
 * of its snapshot on top of HEAD naming the attempt (an object only: no ref moves yet).
 */
export async function snapshotCommit(
  top: ProjectRepository,
  { attempt, worktree }: ReviewTarget,
  env: Record<string, string>,
) {
  const head = await worktreeHead(worktree);
  const tree = await worktreeTree(worktree);
  if (tree === head.tree) return { head: head.commit, tip: head.commit };
  const message = `workspaced: uncommitted work of attempt #${attempt.id} (${attempt.profile})`;
  return { head: head.commit, tip: await commitTree(top, tree, [head.commit], message, env) };
}

/** Moves the attempt's branch to the snapshot commit; the worktree's files already are that commit. */
export async function adoptSnapshot(
  top: ProjectRepository,
  { attempt, worktree }: ReviewTarget,
  head: string,
  tip: string,
) {
  if (tip === head) return;
  const ref = `refs/heads/${attempt.branch}`;
  await runInRepository(top, ['update-ref', '-m', 'workspaced: commit uncommitted work', ref, tip, head]);
  // Only the worktree's index still names the old commit.
  await runInRepository(worktree, ['reset', '-q']);
}

const revParse = async (repository: ProjectRepository, revision: string) =>
  (await runInRepository(repository, ['rev-parse', '--verify', '--end-of-options', revision])).trim();

const isAncestor = (repository: ProjectRepository, ancestor: string, of: string) =>
  runInRepository(repository, ['merge-base', '--is-ancestor', ancestor, of]).then(
    () => true,
    () => false,
  );

async function commitTree(
  repository: ProjectRepository,
  tree: string,
  parents: string[],
  message: string,
  env: Record<string, string>,
): Promise<string> {
  const args = ['commit-tree', tree, ...parents.flatMap((parent) => ['-p', parent])];
  return (await runInRepository(repository, args, { input: message, env })).trim();
}

/** The work tree (the project's or another linked one) that has `ref` checked out, if any. */
async function checkoutOf(top: ProjectRepository, ref: string): Promise<ProjectRepository | undefined> {
  const fields = (await runInRepository(top, ['worktree', 'list', '--porcelain', '-z'])).split('\0');
  let folder: string | undefined;
  for (const field of fields) {
    if (field.startsWith('worktree ')) folder = field.slice('worktree '.length);
    else if (field === `branch ${ref}` && folder !== undefined) {
      if (folder === top.workTree) return top;
      return { ...(await openWorktreeRepository(top, folder)), prefix: '', root: folder };
    }
  }
  return undefined;
}

/** Tracked changes in the work tree the landing would move: 409 WORKTREE_DIRTY with their paths. */
async function requireClean(checkout: ProjectRepository): Promise<void> {
  const status = parsePorcelainV2(
    await runInRepository(checkout, ['status', '--porcelain=v2', '-z', '--untracked-files=no'], {
      timeoutMs: 60_000,
    }),
  );
  const paths = status.entries.map((entry) => entry.path);
  if (paths.length > 0)
    throw new ApiError(
      'WORKTREE_DIRTY',
      `the work tree at ${checkout.workTree} has uncommitted changes; commit or discard them before landing`,
      { paths: paths.slice(0, 1_000) },
    );
}

/** A monorepo project lands only its own folder's changes. */
async function requireInsideProject(top: ProjectRepository, prefix: string, baseTip: string, tip: string) {
  const base = (await runInRepository(top, ['merge-base', baseTip, tip])).trim();
  const changed = (await runInRepository(top, ['diff', '--name-only', '-z', '--no-renames', base, tip, '--']))
    .split('\0')
    .filter((file) => file !== '');
  const outside = changed.filter((file) => !file.startsWith(prefix));
  if (outside.length > 0)
    throw new ApiError(
      'LAND_OUTSIDE_PROJECT',
      `the branch changes files outside the project folder ${prefix}`,
      {
        paths: outside.slice(0, 1_000),
      },
    );
}

function conflict(paths: string[]): ApiError {
  return new ApiError(
    'LAND_CONFLICT',
    `the branch conflicts with its base branch in ${paths.length} file(s)`,
    {
      paths: paths.slice(0, 1_000),
    },
  );
}

/** `merge-tree --write-tree -z --name-only`: `<tree>\0<conflicted path>\0...\0\0<messages>`, exit 1 on conflicts. */
async function mergedTree(top: ProjectRepository, baseTip: string, tip: string): Promise<string> {
  try {
    const output = await runInRepository(
      top,
      ['merge-tree', '--write-tree', '-z', '--name-only', baseTip, tip],
      {
        timeoutMs: 120_000,
      },
    );
    return output.split('\0')[0]!.trim();
  } catch (error) {
    if (!(error instanceof GitFailure) || error.exitCode !== 1) throw error;
    const fields = error.stderr.split('\0');
    const start = fields.findIndex((field) => /^[0-9a-f]{40,64}$/.test(field.trim()));
    if (start < 0) throw error;
    const paths: string[] = [];
    for (const field of fields.slice(start + 1)) {
      if (field === '') break;
      if (!paths.includes(field)) paths.push(field);
    }
    throw conflict(paths);
  }
}

/** The branch's commits since the merge base replayed on `baseTip`, in a temporary detached worktree. */
async function rebased(top: ProjectRepository, baseTip: string, tip: string, env: Record<string, string>) {
  if (await isAncestor(top, baseTip, tip)) return tip;
  const folder = await mkdtemp(path.join(os.tmpdir(), 'workspaced-land-'));
  const scratch = path.join(folder, 'worktree');
  await runInRepository(top, ['worktree', 'add', '--detach', '--end-of-options', scratch, tip], {
    timeoutMs: 120_000,
  });
  try {
    const worktree = await openWorktreeRepository(top, scratch);
    const replay = { ...worktree, root: scratch, prefix: '' };
    try {
      await runInRepository(replay, ['rebase', '--no-autosquash', '--no-update-refs', baseTip], {
        env,
        timeoutMs: 300_000,
      });
    } catch (error) {
      if (!(error instanceof GitFailure) || error.kind !== 'exit') throw error;
      const unmerged = (await runInRepository(replay, ['diff', '--name-only', '-z', '--diff-filter=U']))
        .split('\0')
        .filter((file) => file !== '');
      await runInRepository(replay, ['rebase', '--abort']).catch(() => {});
      if (unmerged.length === 0) throw error;
      throw conflict(unmerged);
    }
    return revParse(replay, 'HEAD');
  } finally {
    await runInRepository(top, ['worktree', 'remove', '--force', '--end-of-options', scratch]).catch(
      () => {},
    );
    await rm(folder, { recursive: true, force: true });
    await runInRepository(top, ['worktree', 'prune']).catch(() => {});
  }
}

/** Fast-forwards the clean checkout of the base branch, or swaps the ref when nothing has it checked out. */
async function moveBase(
  top: ProjectRepository,
  checkout: ProjectRepository | undefined,
  baseRef: string,
  baseTip: string,
  landing: string,
): Promise<void> {
  if (!checkout) {
    await runInRepository(top, ['update-ref', '-m', 'workspaced: land', baseRef, landing, baseTip]).catch(
      (error) => {
        if (error instanceof GitFailure && error.stderr.includes('cannot lock ref'))
          throw new ApiError('GIT_HEAD_MOVED', 'the base branch moved while landing; land again');
        throw error;
      },
    );
    return;
  }
  if ((await revParse(checkout, 'HEAD')) !== baseTip)
    throw new ApiError('GIT_HEAD_MOVED', 'the base branch moved while landing; land again');
  try {
    await runInRepository(checkout, ['merge', '--ff-only', '--no-stat', landing], { timeoutMs: 120_000 });
  } catch (error) {
    if (error instanceof GitFailure && error.stderr.includes('would be overwritten'))
      throw new ApiError(
        'WORKTREE_DIRTY',
        `files in ${checkout.workTree} would be overwritten by the landing`,
        {
          paths: error.stderr
            .split('\n')
            .filter((line) => line.startsWith('\t'))
            .map((line) => line.slice(1)),
        },
      );
    throw error;
  }
}
