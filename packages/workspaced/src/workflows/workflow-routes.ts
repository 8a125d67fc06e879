/**
 * @module Workflow routes: `GET/POST /workflows` (definitions), `POST /workflows/{name}/start`
 * {project_id, task_id, variables}, `GET /workflow-runs/latest`, `GET /workflow-runs/{id}` and
 * `POST /workflow-runs/{id}/advance|approve|cancel`. Definitions are daemon-wide; a run belongs
 * to the project it was started in, whose role decides who sees (`agent.view`), starts
 * (`agent.start`, plus the land route's rights for a workflow with a `land` step), advances and
 * cancels (`agent.control`) and approves (`agent.approve`) it.
 */

import type { Hono } from 'hono';
import { type Permission, roleHas } from '../access/permissions.js';
import { requirePermission } from '../access/project-access.js';
import { denied, effectiveProjectRole } from '../access/project-permission.js';
import { landPermissions, requireLandingWorkflow } from '../attempts/task-landing.js';
import type { Principal } from '../auth/principal.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readId, readJson, readQuery } from '../http/request-input.js';
import { findProject, listAllProjects } from '../projects/project-store.js';
import { findTask } from '../tasks/task-store.js';
import { CommandSyntaxError, placeholdersIn, splitCommand } from './command-template.js';
import {
  createWorkflowSchema,
  latestRunQuerySchema,
  startWorkflowSchema,
  type WorkflowStep,
  workflowNameSchema,
} from './workflow-schema.js';
import {
  definitionView,
  findDefinition,
  findRun,
  insertDefinition,
  listDefinitions,
  newestRuns,
  runView,
} from './workflow-store.js';

/** A stored step's words; a definition made before the code guard widened no longer starts. */
function storedCommand(step: WorkflowStep): string[] {
  try {
    return splitCommand(step.command);
  } catch (error) {
    if (!(error instanceof CommandSyntaxError)) throw error;
    throw new ApiError(
      'WORKFLOW_COMMAND_REFUSED',
      `step ${step.name}: ${error.message}; define the workflow again under a new name`,
    );
  }
}

/** The variables a start must give: exactly the placeholders of the steps, no more, no fewer. */
function checkVariables(steps: readonly WorkflowStep[], variables: Record<string, string>) {
  const words = steps.filter((step) => step.kind === 'agent').map(storedCommand);
  const needed = placeholdersIn(words.flat());
  const unknown = Object.keys(variables).filter((name) => !needed.has(name));
  if (unknown.length > 0)
    throw new ApiError('UNKNOWN_VARIABLE', `the workflow uses no variable ${unknown.join(', ')}`, {
      variables: unknown,
    });
  const missing = [...needed].filter((name) => variables[name] === undefined);
  if (missing.length > 0)
    throw new ApiError('MISSING_VARIABLE', `the workflow needs a value for ${missing.join(', ')}`, {
      variables: missing,
    });
  return words;
}

export function registerWorkflowRoutes(app: Hono<AppEnv>, { db, workflows: runner }: DaemonContext): void {
  /** The caller's role in the project, or 404 when they cannot see it (or it is gone). */
  async function projectRole(principal: Principal, projectId: number, what: string) {
    const project = await findProject(db, projectId);
    const role = project ? await effectiveProjectRole(db, principal, project) : undefined;
    if (!project || !role) throw notFound(what);
    return { project, role };
  }

  /** A start body without `project_id` is unambiguous only when one project lets the caller start runs. */
  async function soleStartableProject(principal: Principal) {
    const startable = [];
    for (const project of await listAllProjects(db)) {
      const role = await effectiveProjectRole(db, principal, project);
      if (role && roleHas(role, 'agent.start')) startable.push({ project, role });
    }
    if (startable.length === 1) return startable[0]!;
    throw new ApiError(
      'PROJECT_REQUIRED',
      startable.length === 0
        ? 'no project lets you start a workflow run'
        : `you can start runs in ${startable.length} projects: say which with project_id`,
    );
  }

  /** A run the caller may see, checked for `permission` in its project. */
  async function authorizeRun(principal: Principal, id: number, permission: Permission) {
    const run = await findRun(db, id);
    if (!run) throw notFound('workflow run');
    const { role } = await projectRole(principal, run.project_id, 'workflow run');
    if (!roleHas(role, 'agent.view')) throw notFound('workflow run');
    if (!roleHas(role, permission)) throw denied(permission);
    return run;
  }

  app.get('/workflows', requirePermission('agent.view'), async (c) =>
    c.json({ workflows: (await listDefinitions(db)).map(definitionView) }),
  );

  app.post('/workflows', requirePermission('agent.start'), async (c) => {
    const input = await readJson(c, createWorkflowSchema);
    const row = await insertDefinition(db, input, c.var.principal.id);
    if (!row) throw new ApiError('WORKFLOW_EXISTS', `a workflow named ${input.name} exists`);
    return c.json(definitionView(row), 201);
  });

  app.post('/workflows/:name/start', async (c) => {
    const name = workflowNameSchema.safeParse(c.req.param('name'));
    const definition = name.success ? await findDefinition(db, name.data) : undefined;
    if (!definition) throw notFound('workflow');
    const input = await readJson(c, startWorkflowSchema);
    const task = input.task_id === undefined ? undefined : await findTask(db, input.task_id);
    if (input.task_id !== undefined && !task) throw notFound('task');
    const projectId = input.project_id ?? task?.project_id;
    const { project, role } =
      projectId === undefined
        ? await soleStartableProject(c.var.principal)
        : await projectRole(c.var.principal, projectId, 'project');
    if (task && task.project_id !== project.id) throw notFound('task');
    if (!roleHas(role, 'agent.start')) throw denied('agent.start');
    const steps = definitionView(definition).steps;
    if (steps.some((step) => step.kind === 'land')) {
      if (!task)
        throw new ApiError('TASK_REQUIRED', `the workflow ${definition.name} lands a task: give its task_id`);
      // The starter lands through the run: they must hold the land route's rights now, and again when it lands.
      for (const permission of landPermissions) if (!roleHas(role, permission)) throw denied(permission);
      requireLandingWorkflow(project, definition.name);
    }
    const words = checkVariables(steps, input.variables);
    let agentStep = 0;
    const run = await runner.start({
      workflow: definition.name,
      projectId: project.id,
      taskId: task?.id ?? null,
      steps: steps.map((step) => ({ ...step, words: step.kind === 'agent' ? words[agentStep++]! : [] })),
      variables: input.variables,
      startedBy: c.var.principal.id,
    });
    return c.json(runView(run), 201);
  });

  app.get('/workflow-runs/latest', async (c) => {
    const query = readQuery(c, latestRunQuerySchema);
    const projectIds: number[] = [];
    for (const project of await listAllProjects(db)) {
      if (query.project_id !== undefined && project.id !== query.project_id) continue;
      const role = await effectiveProjectRole(db, c.var.principal, project);
      if (role && roleHas(role, 'agent.view')) projectIds.push(project.id);
    }
    const [run] = await newestRuns(db, { projectIds, workflow: query.workflow }, 1);
    if (!run) throw notFound('workflow run');
    return c.json(runView(run));
  });

  app.get('/workflow-runs/:id', async (c) =>
    c.json(runView(await authorizeRun(c.var.principal, readId(c), 'agent.view'))),
  );

  const actions = [
    ['advance', 'agent.control', (id: number, by: string) => runner.advance(id, by)],
    ['approve', 'agent.approve', (id: number, by: string) => runner.approve(id, by)],
    ['cancel', 'agent.control', (id: number, by: string) => runner.cancel(id, by)],
  ] as const;
  for (const [action, permission, act] of actions)
    app.post(`/workflow-runs/:id/${action}`, async (c) => {
      const run = await authorizeRun(c.var.principal, readId(c), permission);
      return c.json(runView(await act(run.id, c.var.principal.id)));
    });
}
