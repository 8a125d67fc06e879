/**
 * @module The tree a worktree would commit now: its index and every change of its files,
 * untracked ones included (`.gitignore` respected), written as a tree object without touching
 * the worktree's own index (a copy of it, so unchanged files are not hashed again). What the
 * review shows and what lands are both this tree, so uncommitted work is reviewed too.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ProjectRepository, runInRepository } from './project-repository.js';

export async function worktreeTree(worktree: ProjectRepository): Promise<string> {
  const folder = await mkdtemp(path.join(os.tmpdir(), 'workspaced-snapshot-'));
  const indexFile = path.join(folder, 'index');
  const topLevel = { ...worktree, root: worktree.workTree };
  try {
    await copyFile(path.join(worktree.gitDir, 'index'), indexFile).catch(() => {});
    await runInRepository(topLevel, ['add', '--all', '--', '.'], { indexFile, timeoutMs: 120_000 });
    return (await runInRepository(topLevel, ['write-tree'], { indexFile })).trim();
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The commit `HEAD` of the worktree points at, and its tree. */
export async function worktreeHead(worktree: ProjectRepository): Promise<{ commit: string; tree: string }> {
  const [commit, tree] = (await runInRepository(worktree, ['rev-parse', 'HEAD', 'HEAD^{tree}']))
    .trim()
    .split('\n');
  return { commit: commit!, tree: tree! };
}
