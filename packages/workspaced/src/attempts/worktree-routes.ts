/**
 * @module Stale worktrees: `GET /projects/{id}/worktrees` (git.view) and
 * `POST /projects/{id}/worktrees/prune` (git.write); see stale-worktrees.ts.
 */
import type { Hono } from 'hono';
import { projectGuard } from '../access/project-access.js';
import { canonicalRoot } from '../files/rooted-path.js';
import { withGitErrors } from '../git/git-errors.js';
import { openProjectRepository } from '../git/project-repository.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { listProjectWorktrees, pruneWorktrees } from './stale-worktrees.js';

export function registerWorktreeRoutes(app: Hono<AppEnv>, { db, dataDir }: DaemonContext): void {
  app.get('/projects/:id/worktrees', projectGuard(db, 'git.view'), async (c) => {
    const repository = await openProjectRepository(await canonicalRoot(c.var.project.path));
    return c.json({ worktrees: await listProjectWorktrees(db, dataDir, c.var.project, repository) });
  });

  app.post('/projects/:id/worktrees/prune', projectGuard(db, 'git.write'), async (c) => {
    const repository = await openProjectRepository(await canonicalRoot(c.var.project.path));
    const worktrees = await listProjectWorktrees(db, dataDir, c.var.project, repository);
    return c.json(await withGitErrors(() => pruneWorktrees(repository, worktrees)));
  });
}
