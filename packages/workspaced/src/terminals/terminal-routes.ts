/**
 * @module Terminal routes: `POST /terminals` (a PTY in a project folder, or in a task's worktree
 * with `task_id`), `GET /terminals` (the
 * live terminals the caller may watch), `POST /terminals/{id}/input` {data},
 * `POST /terminals/{id}/resize` {cols, rows}, `POST /terminals/{id}/terminate`. Output is only
 * streamed over the terminal socket (terminal-socket.ts); there is nothing to poll.
 */
import { realpath, stat } from 'node:fs/promises';
import type { Hono } from 'hono';
import { roleHas } from '../access/permissions.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import { parseRelativePath } from '../files/relative-path.js';
import { refuseReserved } from '../files/reserved-paths.js';
import { canonicalRoot, resolveRooted } from '../files/rooted-path.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readId, readJson } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import { findTask } from '../tasks/task-store.js';
import { resolveShell } from './shell-command.js';
import { authorizeTerminal, terminalRole } from './terminal-access.js';
import { TerminalQuotaExceeded, TooManyTerminals, terminalView } from './terminal-manager.js';
import { createTerminalSchema, inputSchema, sizeSchema } from './terminal-schema.js';

/** The real folder of a task's worktree, for a terminal opened in it (`task_id`). */
async function taskWorktreeRoot(db: DaemonContext['db'], projectId: number, taskId: number): Promise<string> {
  const task = await findTask(db, taskId);
  if (!task || task.project_id !== projectId) throw notFound('task');
  if (!task.worktree_path)
    throw new ApiError(
      'NO_WORKTREE',
      'the task has no worktree yet; open it first (POST /tasks/{id}/worktree)',
    );
  try {
    return await realpath(task.worktree_path);
  } catch {
    throw new ApiError('WORKTREE_MISSING', "the task's worktree folder is gone; open the worktree again");
  }
}

export function registerTerminalRoutes(app: Hono<AppEnv>, { db, dataDir, terminals }: DaemonContext): void {
  app.post('/terminals', async (c) => {
    const body = await readJson(c, createTerminalSchema);
    const project = await findProject(db, body.project_id);
    const role = project ? await effectiveProjectRole(db, c.var.principal, project) : undefined;
    if (!project || !role) throw notFound('project');
    if (!roleHas(role, 'terminal.create'))
      throw new ApiError('PERMISSION_DENIED', 'your role does not grant terminal.create', {
        permission: 'terminal.create',
      });
    const root =
      body.task_id === undefined
        ? await canonicalRoot(project.path)
        : await taskWorktreeRoot(db, project.id, body.task_id);
    const cwd = await resolveRooted(root, parseRelativePath(body.cwd));
    refuseReserved(dataDir, cwd.real);
    const folder = cwd.exists ? await stat(cwd.real).catch(() => null) : null;
    if (!folder?.isDirectory()) throw new ApiError('INVALID_CWD', 'cwd is not a folder in the project');
    const shell = await resolveShell(body.shell);
    try {
      const session = terminals.create({
        projectId: project.id,
        createdBy: c.var.principal.id,
        shell,
        args: body.args,
        cwd: cwd.real,
        env: body.env,
        cols: body.cols,
        rows: body.rows,
      });
      return c.json(terminalView(session), 201);
    } catch (error) {
      if (error instanceof TooManyTerminals)
        throw new ApiError('TOO_MANY_TERMINALS', 'the daemon runs its maximum number of terminals');
      if (error instanceof TerminalQuotaExceeded)
        throw new ApiError(
          'TERMINAL_QUOTA_EXCEEDED',
          `you already run ${error.limit} terminals; terminate one first`,
          { limit: error.limit },
        );
      throw error;
    }
  });

  app.get('/terminals', async (c) => {
    const visible = [];
    for (const session of terminals.list()) {
      const role = await terminalRole(db, c.var.principal, session);
      if (role && roleHas(role, 'terminal.view')) visible.push(terminalView(session));
    }
    return c.json({ terminals: visible });
  });

  app.post('/terminals/:id/input', async (c) => {
    const { session } = await authorizeTerminal(db, terminals, c.var.principal, readId(c), 'terminal.write');
    session.write((await readJson(c, inputSchema)).data);
    return c.body(null, 204);
  });

  app.post('/terminals/:id/resize', async (c) => {
    const { session } = await authorizeTerminal(db, terminals, c.var.principal, readId(c), 'terminal.write');
    const size = await readJson(c, sizeSchema);
    session.resize(size.cols, size.rows);
    return c.json(terminalView(session));
  });

  app.post('/terminals/:id/terminate', async (c) => {
    const { session } = await authorizeTerminal(
      db,
      terminals,
      c.var.principal,
      readId(c),
      'terminal.terminate',
    );
    const exit = await terminals.terminate(session);
    return c.json({ id: session.info.id, exit_code: exit.exitCode, signal: exit.signal });
  });
}
