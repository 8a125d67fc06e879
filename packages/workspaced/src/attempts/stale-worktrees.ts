/**
 * @module The daemon's task worktrees of a project (`<data dir>/worktrees/<project id>/...`, as
 * `git worktree list` knows them), each marked: `merged` (its attempt landed, or its branch is
 * contained in its base branch), `orphaned` (no task or attempt names it any more, or its folder
 * is gone), `dirty` (uncommitted or untracked files), `running` (an agent works in it). Pruning
 * removes merged and orphaned ones with `git worktree remove`, never one that is dirty or
 * running (git itself refuses a worktree with changes too); branches are kept.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow } from '../db/schema.js';
import { isInside } from '../files/rooted-path.js';
import { withGitErrors } from '../git/git-errors.js';
import { type ProjectRepository, runInRepository } from '../git/project-repository.js';
import { GitFailure } from '../git/run-git.js';
import { openWorktreeRepository } from '../git/worktree-repository.js';
import { listTasks } from '../tasks/task-store.js';
import { projectAttempts } from './attempt-store.js';
import { currentBranch } from './attempt-worktree.js';

interface StaleWorktreeView {
  path: string;
  branch: string | null;
  head: string | null;
  task_id: number | null;
  attempt_id: number | null;
  exists: boolean;
  dirty: boolean;
  running: boolean;
  merged: boolean;
  orphaned: boolean;
}

interface Registered {
  path: string;
  head: string | null;
  branch: string | null;
}

async function registered(repository: ProjectRepository): Promise<Registered[]> {
  const fields = (await runInRepository(repository, ['worktree', 'list', '--porcelain', '-z'])).split('\0');
  const list: Registered[] = [];
  for (const field of fields) {
    if (field.startsWith('worktree '))
      list.push({ path: field.slice('worktree '.length), head: null, branch: null });
    const current = list.at(-1);
    if (!current) continue;
    if (field.startsWith('HEAD ')) current.head = field.slice('HEAD '.length);
    if (field.startsWith('branch refs/heads/')) current.branch = field.slice('branch refs/heads/'.length);
  }
  return list;
}

export function listProjectWorktrees(
  db: WorkspacedDb,
  dataDir: string,
  project: ProjectRow,
  repository: ProjectRepository,
): Promise<StaleWorktreeView[]> {
  return withGitErrors(async () => {
    const folder = path.join(dataDir, 'worktrees', String(project.id));
    const attempts = await projectAttempts(db, project.id);
    const tasks = await listTasks(db, project.id);
    const defaultBase = await currentBranch(repository).catch(() => undefined);
    const views: StaleWorktreeView[] = [];
    for (const entry of await registered(repository)) {
      if (!isInside(folder, entry.path) || entry.path === folder) continue;
      const here = attempts
        .filter((attempt) => attempt.worktree_path === entry.path)
        .sort((a, b) => b.id - a.id);
      const task = tasks.find((candidate) => candidate.worktree_path === entry.path);
      const newest = here[0];
      const exists = (await stat(entry.path).catch(() => null))?.isDirectory() ?? false;
      const dirty = exists && (await hasChanges(repository, entry.path));
      const base = newest?.base_branch ?? defaultBase;
      const contained =
        entry.head !== null &&
        base !== undefined &&
        (await runInRepository(repository, [
          'merge-base',
          '--is-ancestor',
          entry.head,
          `refs/heads/${base}`,
        ]).then(
          () => true,
          () => false,
        ));
      views.push({
        path: entry.path,
        branch: entry.branch,
        head: entry.head,
        task_id: newest?.task_id ?? task?.id ?? null,
        attempt_id: newest?.id ?? null,
        exists,
        dirty,
        running: here.some((attempt) => attempt.state === 'running'),
        merged: (newest?.landed_commit ?? null) !== null || contained,
        orphaned: !exists || (here.length === 0 && task === undefined),
      });
    }
    return views;
  });
}

async function hasChanges(repository: ProjectRepository, worktreePath: string): Promise<boolean> {
  try {
    const worktree = await openWorktreeRepository(repository, worktreePath);
    const top = { ...worktree, root: worktree.workTree, prefix: '' };
    return (await runInRepository(top, ['status', '--porcelain', '-z'], { timeoutMs: 60_000 })) !== '';
  } catch {
    // A worktree git cannot read is kept: "dirty" is the safe answer.
    return true;
  }
}

interface PruneResult {
  removed: string[];
  kept: { path: string; reason: string }[];
}

export async function pruneWorktrees(
  repository: ProjectRepository,
  worktrees: readonly StaleWorktreeView[],
): Promise<PruneResult> {
  const result: PruneResult = { removed: [], kept: [] };
  for (const worktree of worktrees) {
    if (!worktree.merged && !worktree.orphaned) continue;
    if (worktree.running) result.kept.push({ path: worktree.path, reason: 'an agent runs in it' });
    else if (worktree.dirty) result.kept.push({ path: worktree.path, reason: 'it has uncommitted work' });
    else if (!worktree.exists) result.removed.push(worktree.path);
    else
      try {
        await runInRepository(repository, ['worktree', 'remove', '--end-of-options', worktree.path], {
          timeoutMs: 120_000,
        });
        result.removed.push(worktree.path);
      } catch (error) {
        const reason =
          error instanceof GitFailure ? error.stderr.split('\n')[0]!.replace('fatal: ', '') : 'git failed';
        result.kept.push({ path: worktree.path, reason });
      }
  }
  // Registrations of folders that are gone.
  await runInRepository(repository, ['worktree', 'prune']);
  return result;
}
