/**
 * @module The built-in MCP tools. Each is a thin name over one REST route: its arguments give the
 * path ids and the body, and the call goes through that route (tool-dispatch.ts), so validation
 * and permission checks are exactly the REST route's. Argument schemas here only shape the call;
 * the route's own schema stays the single judge of the body.
 */
import { z } from 'zod';
import { landStrategies } from '../attempts/land.js';
import { taskStates } from '../tasks/task-schema.js';

const id = z.number().int().positive();

export interface RestCall {
  method: 'GET' | 'POST';
  /** Relative to `/api/v1`. */
  path: string;
  body?: Record<string, unknown>;
}

interface McpTool<S extends z.ZodObject = z.ZodObject> {
  name: string;
  description: string;
  input: S;
  toCall: (args: z.infer<S>) => RestCall;
}

const tool = <S extends z.ZodObject>(definition: McpTool<S>) => definition as unknown as McpTool;

export const mcpTools: readonly McpTool[] = [
  tool({
    name: 'project.list',
    description: 'Projects the caller may see, each with the caller’s role (GET /projects).',
    input: z.object({}).strict(),
    toCall: () => ({ method: 'GET', path: '/projects' }),
  }),
  tool({
    name: 'task.create',
    description: 'Create a task in a project (POST /projects/{project_id}/tasks; needs tasks.write).',
    input: z
      .object({
        project_id: id,
        title: z.string(),
        description: z.string().optional(),
        priority: z.number().int().optional(),
        state: z.enum(taskStates).optional(),
      })
      .strict(),
    toCall: ({ project_id, ...body }) => ({ method: 'POST', path: `/projects/${project_id}/tasks`, body }),
  }),
  tool({
    name: 'task.move',
    description:
      'Move a task to another state; `version` must be current (POST /tasks/{id}/move; 409 when stale).',
    input: z.object({ id, state: z.enum(taskStates), version: z.number().int() }).strict(),
    toCall: ({ id: taskId, ...body }) => ({ method: 'POST', path: `/tasks/${taskId}/move`, body }),
  }),
  tool({
    name: 'terminal.create',
    description: 'Start a terminal in a project (POST /terminals; needs terminal.create).',
    input: z
      .object({
        project_id: id,
        cwd: z.string().optional(),
        shell: z.string().optional(),
        args: z.array(z.string()).optional(),
        cols: z.number().int().optional(),
        rows: z.number().int().optional(),
      })
      .strict(),
    toCall: (body) => ({ method: 'POST', path: '/terminals', body }),
  }),
  tool({
    name: 'terminal.input',
    description:
      'Type into a live terminal; end a line with \\r (POST /terminals/{id}/input; needs terminal.write).',
    input: z.object({ id, data: z.string() }).strict(),
    toCall: ({ id: terminalId, data }) => ({
      method: 'POST',
      path: `/terminals/${terminalId}/input`,
      body: { data },
    }),
  }),
  tool({
    name: 'attempt.start',
    description:
      'Start a coding agent on a task in its own worktree (POST /tasks/{task_id}/attempts; needs agent.start, terminal.create and git.write). `profile` is one of GET /agent-profiles; the prompt defaults to the task title and description.',
    input: z
      .object({
        task_id: id,
        profile: z.string(),
        prompt: z.string().optional(),
        base_branch: z.string().optional(),
      })
      .strict(),
    toCall: ({ task_id, ...body }) => ({ method: 'POST', path: `/tasks/${task_id}/attempts`, body }),
  }),
  tool({
    name: 'attempt.follow_up',
    description:
      'Send a follow-up prompt to an attempt: typed into its running agent, or the agent started again in the same worktree (POST /attempts/{id}/follow-up).',
    input: z.object({ id, prompt: z.string() }).strict(),
    toCall: ({ id: attemptId, prompt }) => ({
      method: 'POST',
      path: `/attempts/${attemptId}/follow-up`,
      body: { prompt },
    }),
  }),
  tool({
    name: 'task.diff',
    description:
      "A task attempt's changes against its base branch, file by file with patches (GET /tasks/{id}/diff; needs git.view). Default: the newest attempt.",
    input: z.object({ id, attempt_id: id.optional() }).strict(),
    toCall: ({ id: taskId, attempt_id }) => ({
      method: 'GET',
      path: `/tasks/${taskId}/diff${attempt_id === undefined ? '' : `?attempt_id=${attempt_id}`}`,
    }),
  }),
  tool({
    name: 'task.land',
    description:
      "Land a task attempt's branch on its base branch with merge, squash or rebase (POST /tasks/{id}/land; needs git.write and tasks.write; 409 LAND_CONFLICT lists conflicting paths and changes nothing; 409 LAND_REQUIRES_APPROVAL names the workflow that must land the project's tasks).",
    input: z
      .object({
        id,
        strategy: z.enum(landStrategies),
        message: z.string().optional(),
        remove_worktree: z.boolean().optional(),
        attempt_id: id.optional(),
      })
      .strict(),
    toCall: ({ id: taskId, ...body }) => ({ method: 'POST', path: `/tasks/${taskId}/land`, body }),
  }),
  tool({
    name: 'git.status',
    description:
      'Branch and changed files of a project (GET /projects/{project_id}/git/status; needs git.view).',
    input: z.object({ project_id: id }).strict(),
    toCall: ({ project_id }) => ({ method: 'GET', path: `/projects/${project_id}/git/status` }),
  }),
  tool({
    name: 'attention.list',
    description: 'Open and recently resolved attention items the caller may see (GET /attention).',
    input: z.object({}).strict(),
    toCall: () => ({ method: 'GET', path: '/attention' }),
  }),
];

export const findTool = (name: string) => mcpTools.find((candidate) => candidate.name === name);
