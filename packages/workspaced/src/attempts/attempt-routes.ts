/**
 * @module Agent profiles and attempts: `GET /agent-profiles` (agent.view), `POST/GET
 * /tasks/{id}/attempts`, `GET /attempts/{id}`, `POST /attempts/{id}/follow-up` {prompt} and
 * `POST /attempts/{id}/stop`. Starting takes agent.start, terminal.create and git.write in the
 * task's project (it runs a program and makes a branch); a follow-up agent.start and
 * terminal.write; a stop agent.control, or agent.start for the user who started the attempt.
 */
import type { Hono } from 'hono';
import { roleHas } from '../access/permissions.js';
import { requirePermission, taskGuard } from '../access/project-access.js';
import { denied } from '../access/project-permission.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readId, readJson } from '../http/request-input.js';
import { findOnPath } from '../terminals/agents/installed-agents.js';
import { builtInProfiles } from './agent-profiles.js';
import { authorizeAttempt } from './attempt-access.js';
import { followUpSchema, startAttemptSchema } from './attempt-schema.js';
import { attemptView, listAttempts } from './attempt-store.js';

/** Shown in place of a profile's environment values to callers without settings.view (they may be keys). */
const hiddenValue = '<hidden>';

export function registerAttemptRoutes(app: Hono<AppEnv>, { db, attempts }: DaemonContext): void {
  app.get('/agent-profiles', requirePermission('agent.view'), async (c) => {
    const showEnv = roleHas(c.var.principal.role, 'settings.view');
    const profiles = await Promise.all(
      attempts.profiles.map(async (profile) => {
        const executable = await findOnPath(profile.command);
        return {
          ...profile,
          env: showEnv
            ? profile.env
            : Object.fromEntries(Object.keys(profile.env).map((name) => [name, hiddenValue])),
          built_in: builtInProfiles.includes(profile),
          installed: executable !== null,
          path: executable,
        };
      }),
    );
    return c.json({ profiles });
  });

  app.post(
    '/tasks/:id/attempts',
    taskGuard(db, 'agent.start'),
    taskGuard(db, 'terminal.create'),
    taskGuard(db, 'git.write'),
    async (c) => {
      const body = await readJson(c, startAttemptSchema);
      const attempt = await attempts.start({
        task: c.var.task,
        project: c.var.project,
        profile: body.profile,
        prompt: body.prompt,
        baseBranch: body.base_branch,
        userId: c.var.principal.id,
      });
      return c.json(attemptView(attempt), 201);
    },
  );

  app.get('/tasks/:id/attempts', taskGuard(db, 'agent.view'), async (c) =>
    c.json({ attempts: (await listAttempts(db, c.var.task.id)).map(attemptView) }),
  );

  app.get('/attempts/:id', async (c) => {
    const { attempt } = await authorizeAttempt(db, c.var.principal, readId(c), []);
    return c.json(attemptView(attempt));
  });

  app.post('/attempts/:id/follow-up', async (c) => {
    const { attempt } = await authorizeAttempt(db, c.var.principal, readId(c), [
      'agent.start',
      'terminal.write',
    ]);
    const { prompt } = await readJson(c, followUpSchema);
    const result = await attempts.followUp(attempt.id, prompt, c.var.principal.id);
    return c.json({ ...attemptView(result.attempt), delivered: result.delivered });
  });

  app.post('/attempts/:id/stop', async (c) => {
    const { attempt, role } = await authorizeAttempt(db, c.var.principal, readId(c), []);
    const own = attempt.created_by === c.var.principal.id && roleHas(role, 'agent.start');
    if (!own && !roleHas(role, 'agent.control')) throw denied('agent.control');
    return c.json(attemptView(await attempts.stopAttempt(attempt.id)));
  });
}
