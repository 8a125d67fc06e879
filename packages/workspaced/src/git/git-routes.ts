/**
 * @module `/projects/{id}/git/*`: status, diff, log and branches to read (git.view); stage,
 * commit, branch and switch to change the repository (git.write). Each request finds the
 * project's repository once and pins it for every git command (git/project-repository.ts).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { projectGuard } from '../access/project-access.js';
import { parseRelativePath } from '../files/relative-path.js';
import { refuseReserved } from '../files/reserved-paths.js';
import { canonicalRoot, resolveRooted } from '../files/rooted-path.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson, readQuery } from '../http/request-input.js';
import { openProjectRepository } from './project-repository.js';
import { gitBranches, gitDiff, gitLog, gitStatus } from './read-operations.js';
import { checkRevision } from './ref-name.js';
import { gitCommit, gitCreateBranch, gitStage, gitSwitch } from './write-operations.js';

/** Largest diff returned; beyond it the answer says `truncated: true`. */
const maxDiffBytes = 4 * 1024 * 1024;

const booleanText = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');
const diffQuery = z.object({ staged: booleanText.default(false), path: z.string().max(8_192).optional() });
const logQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1_000).default(50),
  ref: z.string().max(256).optional(),
});
const stageBody = z.object({
  paths: z.array(z.string().max(8_192)).min(1).max(1_000),
  unstage: z.boolean().default(false),
});
const commitBody = z.object({ message: z.string().trim().min(1).max(10_000) });
const branchBody = z.object({ name: z.string().max(256), start_point: z.string().max(256).optional() });
const switchBody = z.object({ branch: z.string().max(256) });

/** A client path checked inside the root, handed to git relative to it (`.` for the root). */
async function gitPath(root: string, dataDir: string, input: string): Promise<string> {
  const segments = parseRelativePath(input);
  refuseReserved(dataDir, (await resolveRooted(root, segments)).real);
  return segments.length === 0 ? '.' : segments.join('/');
}

export function registerGitRoutes(app: Hono<AppEnv>, { db, dataDir }: DaemonContext): void {
  const root = async (project: { path: string }) => openProjectRepository(await canonicalRoot(project.path));

  app.get('/projects/:id/git/status', projectGuard(db, 'git.view'), async (c) =>
    c.json(await gitStatus(await root(c.var.project))),
  );

  app.get('/projects/:id/git/diff', projectGuard(db, 'git.view'), async (c) => {
    const query = readQuery(c, diffQuery);
    const repo = await root(c.var.project);
    const path = query.path === undefined ? undefined : await gitPath(repo.root, dataDir, query.path);
    return c.json(await gitDiff(repo, { staged: query.staged, path, maxBytes: maxDiffBytes }));
  });

  app.get('/projects/:id/git/log', projectGuard(db, 'git.view'), async (c) => {
    const query = readQuery(c, logQuery);
    const ref = query.ref === undefined ? undefined : checkRevision(query.ref);
    return c.json({ commits: await gitLog(await root(c.var.project), query.limit, ref) });
  });

  app.get('/projects/:id/git/branches', projectGuard(db, 'git.view'), async (c) =>
    c.json({ branches: await gitBranches(await root(c.var.project)) }),
  );

  app.post('/projects/:id/git/stage', projectGuard(db, 'git.write'), async (c) => {
    const body = await readJson(c, stageBody);
    const repo = await root(c.var.project);
    const paths = await Promise.all(body.paths.map((path) => gitPath(repo.root, dataDir, path)));
    await gitStage(repo, paths, body.unstage);
    return c.json(await gitStatus(repo));
  });

  app.post('/projects/:id/git/commit', projectGuard(db, 'git.write'), async (c) => {
    const { message } = await readJson(c, commitBody);
    const user = c.var.principal;
    const commit = await gitCommit(await root(c.var.project), message, {
      name: user.display_name || user.username,
      email: `${user.username}@workspaced.localhost`,
    });
    return c.json(commit, 201);
  });

  app.post('/projects/:id/git/branch', projectGuard(db, 'git.write'), async (c) => {
    const body = await readJson(c, branchBody);
    return c.json(await gitCreateBranch(await root(c.var.project), body.name, body.start_point), 201);
  });

  app.post('/projects/:id/git/switch', projectGuard(db, 'git.write'), async (c) => {
    const { branch } = await readJson(c, switchBody);
    return c.json(await gitSwitch(await root(c.var.project), branch));
  });
}
