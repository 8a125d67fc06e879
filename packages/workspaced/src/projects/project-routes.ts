/**
 * @module `/projects` and `/projects/{id}`: list the projects the caller may see, create one
 * from an existing folder, read one, change its setting (`land_requires_workflow`), delete its
 * metadata (never its files).
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { projectGuard, requirePermission } from '../access/project-access.js';
import { cappedMemberRole } from '../access/project-permission.js';
import { reachesEveryProject } from '../access/roles.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { isReserved } from '../files/reserved-paths.js';
import { ApiError } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { workflowNameSchema } from '../workflows/workflow-schema.js';
import { definitionView, findDefinition } from '../workflows/workflow-store.js';
import {
  canonicalProjectFolder,
  createProject,
  deleteProject,
  listAllProjects,
  listMemberProjects,
  projectView,
  setLandRequiresWorkflow,
} from './project-store.js';

const createProjectSchema = z.object({
  name: z.string().trim().min(1).max(200),
  path: z
    .string()
    .min(1)
    .max(4_096)
    .refine((value) => !value.includes('\0'), 'path contains a NUL byte'),
});

/** The project's settings `PATCH /projects/{id}` changes (one today). */
const projectSettingsSchema = z.object({ land_requires_workflow: workflowNameSchema.nullable() }).strict();

/** A workflow that guards landing: it exists and approves before it lands (definitions never change). */
async function requireGuardingWorkflow(db: WorkspacedDb, name: string): Promise<void> {
  const definition = await findDefinition(db, name);
  const kinds = definition ? definitionView(definition).steps.map((step) => step.kind) : [];
  const land = kinds.indexOf('land');
  if (land < 0 || !kinds.slice(0, land).includes('approval'))
    throw new ApiError(
      'LAND_WORKFLOW_INVALID',
      definition
        ? `the workflow ${name} has no approval step before a land step`
        : `there is no workflow named ${name}`,
      { workflow: name },
    );
}

export function registerProjectRoutes(app: Hono<AppEnv>, { db, dataDir }: DaemonContext): void {
  app.get('/projects', requirePermission('project.view'), async (c) => {
    const principal = c.var.principal;
    if (reachesEveryProject(principal.role)) {
      const rows = await listAllProjects(db);
      return c.json({ projects: rows.map((row) => projectView(row, principal.role)) });
    }
    const rows = await listMemberProjects(db, principal.id);
    return c.json({
      projects: rows.map(({ member_role, ...row }) =>
        projectView(row, cappedMemberRole(member_role, principal.role)),
      ),
    });
  });

  app.post('/projects', requirePermission('project.manage'), async (c) => {
    const input = await readJson(c, createProjectSchema);
    const folder = await canonicalProjectFolder(input.path);
    if (isReserved(dataDir, folder))
      throw new ApiError('INVALID_PATH', "a project cannot be inside the daemon's data folder");
    const row = await createProject(db, input.name, folder, c.var.principal.id);
    return c.json(projectView(row, c.var.principal.role), 201);
  });

  app.get('/projects/:id', projectGuard(db, 'project.view'), (c) =>
    c.json(projectView(c.var.project, c.var.projectRole)),
  );

  app.patch('/projects/:id', projectGuard(db, 'project.manage'), async (c) => {
    const { land_requires_workflow: workflow } = await readJson(c, projectSettingsSchema);
    if (workflow !== null) await requireGuardingWorkflow(db, workflow);
    const row = await setLandRequiresWorkflow(db, c.var.project.id, workflow);
    return c.json(projectView(row, c.var.projectRole));
  });

  app.delete('/projects/:id', projectGuard(db, 'project.manage'), async (c) => {
    await deleteProject(db, c.var.project.id);
    return c.body(null, 204);
  });
}
