/**
 * @module Tests: every permission of every role on every route, through the running bin. The
 * expected role table below is written from the README, not taken from the code.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAttempt } from './support/attempts.js';
import { bearerRequest } from './support/bearer.js';
import {
  Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { addBareOrigin, installStandInGh } from './support/forge.js';
import { createRepo, git } from './support/git-repo.js';
import { PushDevice } from './support/push-device.js';
import { removeScratchDirs } from './support/scratch.js';
import { pathWith, standInAgents } from './support/stand-in-agents.js';

/** README "Roles and permissions", the permissions the routes of this issue use. */
const administrator = [
  'project.view',
  'project.manage',
  'terminal.view',
  'terminal.write',
  'terminal.create',
  'terminal.terminate',
  'files.view',
  'files.write',
  'git.view',
  'git.write',
  'tasks.view',
  'tasks.write',
  'agent.view',
  'agent.start',
  'agent.control',
  'agent.approve',
  'services.view',
  'services.control',
  'settings.view',
  'settings.manage',
  'users.view',
  'users.manage',
  'audit.view',
  'notifications.manage',
  'events.publish',
];
const worker = [
  'project.view',
  'terminal.view',
  'terminal.write',
  'terminal.create',
  'files.view',
  'files.write',
  'git.view',
  'git.write',
  'tasks.view',
  'tasks.write',
  'agent.view',
  'agent.start',
  'services.view',
  'notifications.manage',
  'events.publish',
];
const granted: Record<string, readonly string[]> = {
  owner: administrator,
  admin: administrator,
  operator: [...worker, 'terminal.terminate', 'agent.control', 'agent.approve', 'services.control'],
  developer: worker,
  viewer: [
    'project.view',
    'terminal.view',
    'files.view',
    'git.view',
    'tasks.view',
    'agent.view',
    'services.view',
  ],
};
const roleNames = Object.keys(granted);

interface Fixture {
  role: string;
  projectId: number;
  repo: string;
}

interface RouteCase {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  route: string;
  /** Every permission the route needs. */
  needs: string[];
  /** Creates what the call consumes; returns the concrete path and body. */
  prepare: (fixture: Fixture) => Promise<{ path: string; body?: unknown }>;
}

let daemon: RunningDaemon;
let owner: Client;
const clients = new Map<string, Client>();
const userIds = new Map<string, string>();
let repo: string;
let sharedProject: number;
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

async function newProject(role: string): Promise<number> {
  const created = await owner.post('/projects', { name: unique('p'), path: repo });
  const id = created.body.id as number;
  if (role !== 'owner' && role !== 'admin')
    await owner.post(`/projects/${id}/members`, { user_id: userIds.get(role), role });
  return id;
}

async function newTask(projectId: number): Promise<number> {
  return (
    await owner.post(`/projects/${projectId}/tasks`, { title: unique('task '), description: '', priority: 1 })
  ).body.id;
}

const fixed = (path: string, body?: unknown) => async () => ({ path, body });

async function newTerminal(projectId: number): Promise<number> {
  return (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
}

/** `perm-gate` waits for an approval; `perm-sleep` runs `sleep` in a terminal. */
let workflowsDefined: Promise<unknown> | undefined;
async function newRun(projectId: number, workflow: 'perm-gate' | 'perm-sleep'): Promise<number> {
  workflowsDefined ??= Promise.all([
    owner.post('/workflows', { name: 'perm-gate', steps: [{ name: 'approve', kind: 'approval' }] }),
    owner.post('/workflows', {
      name: 'perm-sleep',
      steps: [{ name: 'sleep', kind: 'agent', command: 'sleep 60' }],
    }),
  ]);
  await workflowsDefined;
  return (await owner.post(`/workflows/${workflow}/start`, { project_id: projectId })).body.id;
}

async function newNode(url = 'http://127.0.0.1:1'): Promise<number> {
  return (await owner.post('/nodes', { name: unique('node'), url })).body.id;
}

/**
 * An attempt of the owner's on a new task of the shared project (the stand-in claude runs `steps`);
 * with `finished`, waited for until the agent exits.
 */
async function newAttempt(steps: string, finished = true, projectId = sharedProject) {
  const task = await newTask(projectId);
  if (finished)
    return { task, attempt: (await runAttempt(owner, task, { profile: 'claude', prompt: steps })).id };
  const started = await owner.post(`/tasks/${task}/attempts`, { profile: 'claude', prompt: steps });
  return { task, attempt: started.body.id as number };
}

/** A project of its own (a land needs a clean project work tree, which the file routes dirty). */
async function newRepositoryProject(role: string): Promise<{ id: number; dir: string }> {
  const dir = await createRepo({ 'README.md': 'land here\n' });
  const created = await owner.post('/projects', { name: unique('land'), path: dir });
  const id = created.body.id as number;
  if (role !== 'owner' && role !== 'admin')
    await owner.post(`/projects/${id}/members`, { user_id: userIds.get(role), role });
  return { id, dir };
}

/** A task with a finished attempt that committed a file, in a repository project of its own. */
async function landableTask(role: string) {
  const project = await newRepositoryProject(role);
  const { task, attempt } = await newAttempt(
    `write ${unique('l')}.txt landed;;commit work;;exit 0`,
    true,
    project.id,
  );
  return { project, task, attempt };
}

/** `perm-land` approves, then lands the run's task. */
let landWorkflowDefined: Promise<unknown> | undefined;
async function defineLandWorkflow() {
  landWorkflowDefined ??= owner.post('/workflows', {
    name: 'perm-land',
    steps: [
      { name: 'approve', kind: 'approval' },
      { name: 'land', kind: 'land' },
    ],
  });
  await landWorkflowDefined;
}

/** The agent loop (issue 27): README "Attempts", "Review and land" and "Stale worktrees". */
const agentLoopRoutes: RouteCase[] = [
  { method: 'GET', route: '/agent-profiles', needs: ['agent.view'], prepare: fixed('/agent-profiles') },
  {
    method: 'POST',
    route: '/tasks/{id}/attempts',
    needs: ['agent.start', 'terminal.create', 'git.write'],
    prepare: async (f) => ({
      path: `/tasks/${await newTask(f.projectId)}/attempts`,
      body: { profile: 'claude', prompt: 'print started;;exit 0' },
    }),
  },
  {
    method: 'GET',
    route: '/tasks/{id}/attempts',
    needs: ['agent.view'],
    prepare: async () => ({ path: `/tasks/${(await newAttempt('exit 0')).task}/attempts` }),
  },
  {
    method: 'GET',
    route: '/attempts/{id}',
    needs: ['agent.view'],
    prepare: async () => ({ path: `/attempts/${(await newAttempt('exit 0')).attempt}` }),
  },
  {
    method: 'POST',
    route: '/attempts/{id}/follow-up',
    needs: ['agent.start', 'terminal.write'],
    prepare: async () => ({
      path: `/attempts/${(await newAttempt('exit 0')).attempt}/follow-up`,
      body: { prompt: 'print again;;exit 0' },
    }),
  },
  {
    // The owner started it: another user stops it with agent.control.
    method: 'POST',
    route: '/attempts/{id}/stop',
    needs: ['agent.control'],
    prepare: async () => ({ path: `/attempts/${(await newAttempt('wait', false)).attempt}/stop` }),
  },
  {
    method: 'GET',
    route: '/tasks/{id}/diff',
    needs: ['git.view'],
    prepare: async () => ({
      path: `/tasks/${(await newAttempt(`write ${unique('d')}.txt changed;;commit work;;exit 0`)).task}/diff`,
    }),
  },
  {
    method: 'POST',
    route: '/tasks/{id}/land',
    needs: ['git.write', 'tasks.write'],
    prepare: async (f) => ({
      path: `/tasks/${(await landableTask(f.role)).task}/land`,
      body: { strategy: 'merge' },
    }),
  },
  {
    // A bare repository as origin and the stand-in gh, signed in, on the daemon's PATH.
    method: 'POST',
    route: '/tasks/{id}/pull-request',
    needs: ['git.write', 'tasks.write'],
    prepare: async (f) => {
      const { project, task } = await landableTask(f.role);
      await addBareOrigin(project.dir);
      return { path: `/tasks/${task}/pull-request`, body: {} };
    },
  },
  {
    method: 'POST',
    route: '/workflows/{name}/start (a land step)',
    needs: ['agent.start', 'git.write', 'tasks.write'],
    prepare: async (f) => {
      await defineLandWorkflow();
      return { path: '/workflows/perm-land/start', body: { task_id: await newTask(f.projectId) } };
    },
  },
  {
    method: 'GET',
    route: '/projects/{id}/worktrees',
    needs: ['git.view'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/worktrees` }),
  },
  {
    method: 'POST',
    route: '/projects/{id}/worktrees/prune',
    needs: ['git.write'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/worktrees/prune` }),
  },
  {
    method: 'POST',
    route: '/mcp/tools/attempt.start/invoke',
    needs: ['agent.start', 'terminal.create', 'git.write'],
    prepare: async (f) => ({
      path: '/mcp/tools/attempt.start/invoke',
      body: {
        args: { task_id: await newTask(f.projectId), profile: 'claude', prompt: 'print tool;;exit 0' },
      },
    }),
  },
  {
    method: 'POST',
    route: '/mcp/tools/attempt.follow_up/invoke',
    needs: ['agent.start', 'terminal.write'],
    prepare: async () => ({
      path: '/mcp/tools/attempt.follow_up/invoke',
      body: { args: { id: (await newAttempt('exit 0')).attempt, prompt: 'print again;;exit 0' } },
    }),
  },
  {
    method: 'POST',
    route: '/mcp/tools/task.land/invoke',
    needs: ['git.write', 'tasks.write'],
    prepare: async (f) => ({
      path: '/mcp/tools/task.land/invoke',
      body: { args: { id: (await landableTask(f.role)).task, strategy: 'squash' } },
    }),
  },
  {
    // The guard goes on a project of its own: the shared one keeps landing directly.
    method: 'PATCH',
    route: '/projects/{id} (land_requires_workflow)',
    needs: ['project.manage'],
    prepare: async (f) => {
      await defineLandWorkflow();
      return {
        path: `/projects/${(await newRepositoryProject(f.role)).id}`,
        body: { land_requires_workflow: 'perm-land' },
      };
    },
  },
  {
    method: 'POST',
    route: '/mcp/tools/task.diff/invoke',
    needs: ['git.view'],
    prepare: async () => ({
      path: '/mcp/tools/task.diff/invoke',
      body: { args: { id: (await newAttempt(`write ${unique('m')}.txt x;;commit work;;exit 0`)).task } },
    }),
  },
];

const routes: RouteCase[] = [
  ...agentLoopRoutes,
  { method: 'GET', route: '/me', needs: [], prepare: fixed('/me') },
  { method: 'GET', route: '/users', needs: ['users.view'], prepare: fixed('/users') },
  {
    method: 'POST',
    route: '/users',
    needs: ['users.manage'],
    prepare: async () => ({
      path: '/users',
      body: { username: unique('user'), password: 'a long password 1', role: 'viewer' },
    }),
  },
  {
    method: 'PATCH',
    route: '/users/{id}',
    needs: ['users.manage'],
    prepare: async () => {
      const created = await owner.post('/users', {
        username: unique('patched'),
        password: 'a long password 1',
        role: 'viewer',
      });
      return { path: `/users/${created.body.id}`, body: { display_name: 'Renamed' } };
    },
  },
  { method: 'GET', route: '/audit', needs: ['audit.view'], prepare: fixed('/audit') },
  { method: 'GET', route: '/audit/verify', needs: ['audit.view'], prepare: fixed('/audit/verify') },
  { method: 'GET', route: '/projects', needs: ['project.view'], prepare: fixed('/projects') },
  {
    method: 'POST',
    route: '/projects',
    needs: ['project.manage'],
    prepare: async () => ({ path: '/projects', body: { name: unique('new'), path: repo } }),
  },
  {
    method: 'GET',
    route: '/projects/{id}',
    needs: ['project.view'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}` }),
  },
  {
    method: 'DELETE',
    route: '/projects/{id}',
    needs: ['project.manage'],
    prepare: async (f) => ({ path: `/projects/${await newProject(f.role)}` }),
  },
  {
    method: 'GET',
    route: '/projects/{id}/members',
    needs: ['project.view'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/members` }),
  },
  {
    method: 'POST',
    route: '/projects/{id}/members',
    needs: ['project.manage'],
    prepare: async (f) => ({
      path: `/projects/${f.projectId}/members`,
      body: { username: 'bystander', role: 'viewer' },
    }),
  },
  {
    method: 'DELETE',
    route: '/projects/{id}/members/{user}',
    needs: ['project.manage'],
    prepare: async (f) => {
      await owner.post(`/projects/${f.projectId}/members`, { username: 'bystander', role: 'viewer' });
      return { path: `/projects/${f.projectId}/members/${userIds.get('bystander')}` };
    },
  },
  {
    method: 'GET',
    route: '/projects/{id}/tasks',
    needs: ['tasks.view'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/tasks` }),
  },
  {
    method: 'POST',
    route: '/projects/{id}/tasks',
    needs: ['tasks.write'],
    prepare: async (f) => ({
      path: `/projects/${f.projectId}/tasks`,
      body: { title: 'x', description: 'y', priority: 2 },
    }),
  },
  {
    method: 'PATCH',
    route: '/tasks/{id}',
    needs: ['tasks.write'],
    prepare: async (f) => ({ path: `/tasks/${await newTask(f.projectId)}`, body: { title: 'renamed' } }),
  },
  {
    method: 'POST',
    route: '/tasks/{id}/move',
    needs: ['tasks.write'],
    prepare: async (f) => ({
      path: `/tasks/${await newTask(f.projectId)}/move`,
      body: { state: 'running', version: 1 },
    }),
  },
  {
    method: 'DELETE',
    route: '/tasks/{id}',
    needs: ['tasks.write'],
    prepare: async (f) => ({ path: `/tasks/${await newTask(f.projectId)}` }),
  },
  {
    method: 'POST',
    route: '/tasks/{id}/worktree',
    needs: ['tasks.write', 'git.write'],
    prepare: async (f) => ({ path: `/tasks/${await newTask(f.projectId)}/worktree` }),
  },
  {
    method: 'GET',
    route: '/projects/{id}/files',
    needs: ['files.view'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/files` }),
  },
  {
    method: 'GET',
    route: '/projects/{id}/files/read',
    needs: ['files.view'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/files/read?path=README.md` }),
  },
  {
    method: 'POST',
    route: '/projects/{id}/files/write',
    needs: ['files.write'],
    prepare: async (f) => ({
      path: `/projects/${f.projectId}/files/write`,
      body: { path: `${unique('w')}.txt`, content: 'x' },
    }),
  },
  {
    method: 'DELETE',
    route: '/projects/{id}/files',
    needs: ['files.write'],
    prepare: async (f) => {
      const name = `${unique('d')}.txt`;
      await writeFile(path.join(f.repo, name), 'bye');
      return { path: `/projects/${f.projectId}/files?path=${name}` };
    },
  },
  ...['status', 'diff', 'log', 'branches'].map(
    (operation): RouteCase => ({
      method: 'GET',
      route: `/projects/{id}/git/${operation}`,
      needs: ['git.view'],
      prepare: async (f) => ({ path: `/projects/${f.projectId}/git/${operation}` }),
    }),
  ),
  {
    method: 'POST',
    route: '/projects/{id}/git/stage',
    needs: ['git.write'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/git/stage`, body: { paths: ['README.md'] } }),
  },
  {
    method: 'POST',
    route: '/projects/{id}/git/commit',
    needs: ['git.write'],
    prepare: async (f) => {
      const name = `${unique('c')}.txt`;
      await writeFile(path.join(f.repo, name), 'commit me');
      git(f.repo, 'add', '--', name);
      return { path: `/projects/${f.projectId}/git/commit`, body: { message: `add ${name}` } };
    },
  },
  {
    method: 'POST',
    route: '/projects/{id}/git/branch',
    needs: ['git.write'],
    prepare: async (f) => ({
      path: `/projects/${f.projectId}/git/branch`,
      body: { name: unique('feature-') },
    }),
  },
  {
    method: 'POST',
    route: '/projects/{id}/git/switch',
    needs: ['git.write'],
    prepare: async (f) => ({ path: `/projects/${f.projectId}/git/switch`, body: { branch: 'main' } }),
  },
  {
    method: 'POST',
    route: '/terminals',
    needs: ['terminal.create'],
    prepare: async (f) => ({ path: '/terminals', body: { project_id: f.projectId, shell: '/bin/sh' } }),
  },
  // Lists the terminals (agents) of the projects the caller may watch (a filter, never a 403).
  { method: 'GET', route: '/terminals', needs: [], prepare: fixed('/terminals') },
  { method: 'GET', route: '/agents', needs: [], prepare: fixed('/agents') },
  { method: 'GET', route: '/attention', needs: [], prepare: fixed('/attention') },
  { method: 'GET', route: '/observability/sessions', needs: [], prepare: fixed('/observability/sessions') },
  {
    method: 'POST',
    route: '/attention/{id}/resolve (a task item)',
    needs: ['tasks.write'],
    prepare: async (f) => {
      const task = await newTask(f.projectId);
      await owner.post(`/tasks/${task}/move`, { state: 'failed', version: 1 });
      const items = (await owner.get('/attention')).body.items as { id: number; resource: string }[];
      return { path: `/attention/${items.find((item) => item.resource === `task:${task}`)!.id}/resolve` };
    },
  },
  {
    method: 'POST',
    route: '/terminals/{id}/input',
    needs: ['terminal.write'],
    prepare: async (f) => ({
      path: `/terminals/${await newTerminal(f.projectId)}/input`,
      body: { data: 'true\r' },
    }),
  },
  {
    method: 'POST',
    route: '/terminals/{id}/resize',
    needs: ['terminal.write'],
    prepare: async (f) => ({
      path: `/terminals/${await newTerminal(f.projectId)}/resize`,
      body: { cols: 90, rows: 30 },
    }),
  },
  {
    method: 'POST',
    route: '/terminals/{id}/terminate',
    needs: ['terminal.terminate'],
    prepare: async (f) => ({ path: `/terminals/${await newTerminal(f.projectId)}/terminate` }),
  },
  { method: 'GET', route: '/workflows', needs: ['agent.view'], prepare: fixed('/workflows') },
  {
    method: 'POST',
    route: '/workflows',
    needs: ['agent.start'],
    prepare: async () => ({
      path: '/workflows',
      body: { name: unique('wf'), steps: [{ name: 'ok', kind: 'approval' }] },
    }),
  },
  {
    method: 'POST',
    route: '/workflows/{name}/start',
    needs: ['agent.start'],
    prepare: async (f) => {
      await newRun(f.projectId, 'perm-gate');
      return { path: '/workflows/perm-gate/start', body: { project_id: f.projectId } };
    },
  },
  // The newest run of the projects the caller may see (a filter, never a 403).
  {
    method: 'GET',
    route: '/workflow-runs/latest',
    needs: [],
    prepare: async (f) => {
      await newRun(f.projectId, 'perm-gate');
      return { path: '/workflow-runs/latest' };
    },
  },
  {
    method: 'GET',
    route: '/workflow-runs/{id}',
    needs: ['agent.view'],
    prepare: async (f) => ({ path: `/workflow-runs/${await newRun(f.projectId, 'perm-gate')}` }),
  },
  {
    method: 'POST',
    route: '/workflow-runs/{id}/advance',
    needs: ['agent.control'],
    prepare: async (f) => ({ path: `/workflow-runs/${await newRun(f.projectId, 'perm-sleep')}/advance` }),
  },
  {
    method: 'POST',
    route: '/workflow-runs/{id}/approve',
    needs: ['agent.approve'],
    prepare: async (f) => ({ path: `/workflow-runs/${await newRun(f.projectId, 'perm-gate')}/approve` }),
  },
  {
    method: 'POST',
    route: '/workflow-runs/{id}/cancel',
    needs: ['agent.control'],
    prepare: async (f) => ({ path: `/workflow-runs/${await newRun(f.projectId, 'perm-gate')}/cancel` }),
  },
  { method: 'GET', route: '/services/ports', needs: ['services.view'], prepare: fixed('/services/ports') },
  { method: 'GET', route: '/services/host', needs: ['services.view'], prepare: fixed('/services/host') },
  { method: 'GET', route: '/services', needs: ['services.view'], prepare: fixed('/services') },
  {
    method: 'POST',
    route: '/services',
    needs: ['services.control'],
    prepare: async () => ({ path: '/services', body: { name: unique('svc'), port: 3000 } }),
  },
  {
    method: 'DELETE',
    route: '/services/{name}',
    needs: ['services.control'],
    prepare: async () => {
      const name = unique('gone');
      await owner.post('/services', { name, port: 3001 });
      return { path: `/services/${name}` };
    },
  },
  {
    method: 'GET',
    route: '/observability/host',
    needs: ['services.view'],
    prepare: fixed('/observability/host'),
  },
  { method: 'GET', route: '/nodes', needs: ['settings.view'], prepare: fixed('/nodes') },
  { method: 'GET', route: '/nodes/self', needs: ['settings.view'], prepare: fixed('/nodes/self') },
  {
    method: 'POST',
    route: '/nodes',
    needs: ['settings.manage'],
    prepare: async () => ({ path: '/nodes', body: { name: unique('node'), url: 'http://127.0.0.1:1' } }),
  },
  {
    method: 'POST',
    route: '/nodes/{id}/pairing',
    needs: ['settings.manage'],
    prepare: async () => ({ path: `/nodes/${await newNode()}/pairing` }),
  },
  {
    method: 'POST',
    route: '/nodes/{id}/connect',
    needs: ['settings.manage'],
    prepare: async () => {
      // The daemon pairs with itself: it is the node that showed the code.
      const id = await newNode(daemon.url);
      const { code } = (await owner.post(`/nodes/${id}/pairing`)).body;
      return { path: `/nodes/${id}/connect`, body: { remote_node_id: id, code } };
    },
  },
  {
    method: 'POST',
    route: '/nodes/{id}/revoke',
    needs: ['settings.manage'],
    prepare: async () => ({ path: `/nodes/${await newNode()}/revoke` }),
  },
  {
    method: 'GET',
    route: '/nodes/{id}/agents',
    needs: ['settings.view'],
    prepare: async () => {
      const id = await newNode(daemon.url);
      const { code } = (await owner.post(`/nodes/${id}/pairing`)).body;
      await owner.post(`/nodes/${id}/connect`, { remote_node_id: id, code });
      return { path: `/nodes/${id}/agents` };
    },
  },
  // Issue 14: notifications, platform API.
  {
    method: 'GET',
    route: '/notifications/rules',
    needs: ['notifications.manage'],
    prepare: fixed('/notifications/rules'),
  },
  {
    method: 'POST',
    route: '/notifications/rules',
    needs: ['notifications.manage'],
    prepare: fixed('/notifications/rules', { event: 'attention.created', channel: 'browser', enabled: true }),
  },
  {
    method: 'POST',
    route: '/notifications/test',
    needs: ['notifications.manage'],
    prepare: fixed('/notifications/test', {}),
  },
  ...(['GET', 'PUT', 'DELETE'] as const).map(
    (method): RouteCase => ({
      method,
      route: '/notifications/rules/{id}',
      needs: ['notifications.manage'],
      // Rules are per user: the caller's own (a role without the permission gets none, id 1).
      prepare: async (f) => {
        const rule = { event: unique('perm.rule'), channel: 'browser', enabled: true };
        const created = await clients.get(f.role)!.post('/notifications/rules', rule);
        return {
          path: `/notifications/rules/${created.body.id ?? 1}`,
          body: method === 'PUT' ? { enabled: false } : undefined,
        };
      },
    }),
  ),
  // Web Push devices: each user's own, like rules.
  {
    method: 'GET',
    route: '/push/subscriptions',
    needs: ['notifications.manage'],
    prepare: fixed('/push/subscriptions'),
  },
  {
    method: 'POST',
    route: '/push/subscriptions',
    needs: ['notifications.manage'],
    prepare: async () => ({
      path: '/push/subscriptions',
      body: new PushDevice(`https://push.example.test/${unique('d')}`).subscription(),
    }),
  },
  {
    method: 'DELETE',
    route: '/push/subscriptions/{id}',
    needs: ['notifications.manage'],
    // A role without the permission has none: id 1.
    prepare: async (f) => {
      const device = new PushDevice(`https://push.example.test/${unique('d')}`);
      const created = await clients.get(f.role)!.post('/push/subscriptions', device.subscription());
      return { path: `/push/subscriptions/${created.body.id ?? 1}` };
    },
  },
  // Every user manages their own tokens; a token never exceeds its user's role.
  { method: 'GET', route: '/tokens', needs: [], prepare: fixed('/tokens') },
  {
    method: 'POST',
    route: '/tokens',
    needs: [],
    prepare: fixed('/tokens', { name: 'perm', scopes: ['read'] }),
  },
  {
    method: 'POST',
    route: '/tokens/{id}/revoke',
    needs: [],
    prepare: async (f) => {
      const created = await clients.get(f.role)!.post('/tokens', { name: 'to revoke' });
      return { path: `/tokens/${created.body.id}/revoke` };
    },
  },
  { method: 'GET', route: '/webhooks', needs: ['settings.view'], prepare: fixed('/webhooks') },
  {
    method: 'POST',
    route: '/webhooks',
    needs: ['settings.manage'],
    prepare: async () => ({
      path: '/webhooks',
      body: { name: unique('hook'), url: 'https://example.com/h', events: ['none.ever'] },
    }),
  },
  {
    method: 'PUT',
    route: '/webhooks/{name}',
    needs: ['settings.manage'],
    prepare: async () => {
      const name = unique('hook');
      await owner.post('/webhooks', { name, url: 'https://example.com/h', events: ['none.ever'] });
      return { path: `/webhooks/${name}`, body: { enabled: false } };
    },
  },
  {
    method: 'DELETE',
    route: '/webhooks/{name}',
    needs: ['settings.manage'],
    prepare: async () => {
      const name = unique('hook');
      await owner.post('/webhooks', { name, url: 'https://example.com/h', events: ['none.ever'] });
      return { path: `/webhooks/${name}` };
    },
  },
  {
    method: 'POST',
    route: '/events',
    needs: ['events.publish'],
    prepare: async (f) => ({
      path: '/events',
      body: { stream: `project:${f.projectId}`, type: 'perm.check', data: {}, critical: false },
    }),
  },
  { method: 'GET', route: '/plugins', needs: ['settings.view'], prepare: fixed('/plugins') },
  {
    method: 'POST',
    route: '/plugins',
    needs: ['settings.manage'],
    prepare: async () => ({ path: '/plugins', body: { id: unique('plugin'), name: 'P', version: '1.0.0' } }),
  },
  {
    method: 'GET',
    route: '/plugins/{id}',
    needs: ['settings.view'],
    prepare: async () => {
      const id = unique('plugin');
      await owner.post('/plugins', { id, name: 'P', version: '1.0.0' });
      return { path: `/plugins/${id}` };
    },
  },
  {
    method: 'PUT',
    route: '/plugins/{id}',
    needs: ['settings.manage'],
    prepare: async () => {
      const id = unique('plugin');
      await owner.post('/plugins', { id, name: 'P', version: '1.0.0' });
      return { path: `/plugins/${id}`, body: { enabled: true } };
    },
  },
  { method: 'GET', route: '/mcp', needs: [], prepare: fixed('/mcp') },
  // A tool needs what its route needs.
  {
    method: 'POST',
    route: '/mcp/tools/task.create/invoke',
    needs: ['tasks.write'],
    prepare: async (f) => ({
      path: '/mcp/tools/task.create/invoke',
      body: { args: { project_id: f.projectId, title: 'by tool' } },
    }),
  },
];

beforeAll(async () => {
  const agents = await standInAgents();
  await installStandInGh(agents, true);
  daemon = await startDaemon({
    args: ['--login-attempts-per-minute', '1000'],
    env: { PATH: pathWith(agents) },
  });
  owner = await setupOwner(daemon);
  clients.set('owner', owner);
  for (const role of roleNames.slice(1)) {
    const { client, id } = await userClient(daemon, owner, role, role);
    clients.set(role, client);
    userIds.set(role, id);
  }
  userIds.set(
    'bystander',
    (await owner.post('/users', { username: 'bystander', password: 'a long password 1', role: 'viewer' }))
      .body.id,
  );
  repo = await createRepo({ 'README.md': 'hello\n' });
  sharedProject = await newProject('owner');
  for (const role of ['operator', 'developer', 'viewer'])
    await owner.post(`/projects/${sharedProject}/members`, { user_id: userIds.get(role), role });
});

afterAll(async () => {
  expect(await daemon.stop()).toBe(0);
  await removeDataDir(daemon);
  await removeScratchDirs();
});

describe.each(roleNames)('role %s', (role) => {
  test.each(routes.map((route) => [`${route.method} ${route.route}`, route] as const))(
    '%s',
    async (_name, route) => {
      const client = clients.get(role)!;
      const { path: concrete, body } = await route.prepare({ role, projectId: sharedProject, repo });
      const answer = await client.request(route.method, concrete, body === undefined ? {} : { json: body });
      const allowed = route.needs.every((permission) => granted[role]!.includes(permission));
      if (allowed) {
        expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
      } else {
        expect(answer.status, JSON.stringify(answer.body)).toBe(403);
        expect(answer.body.error.code).toBe('PERMISSION_DENIED');
      }
    },
  );
});

describe('token scopes on the attempt tools', () => {
  test('a token whose scopes do not cover the tools is refused each call, and nothing happens', async () => {
    const { task, attempt } = await landableTask('owner');
    const invoke = (secret: string, tool: string, args: Record<string, unknown>) =>
      bearerRequest(daemon, secret, 'POST', `/mcp/tools/${tool}/invoke`, { args });
    const token = async (scopes: string[]) =>
      (await owner.post('/tokens', { name: unique('scoped'), scopes })).body.secret as string;
    const fresh = await newTask(sharedProject);
    for (const scopes of [['read'], ['events']]) {
      const secret = await token(scopes);
      for (const [tool, args] of [
        ['attempt.start', { task_id: fresh, profile: 'claude', prompt: 'print no;;exit 0' }],
        ['attempt.follow_up', { id: attempt, prompt: 'print no;;exit 0' }],
        ['task.land', { id: task, strategy: 'merge' }],
      ] as const) {
        const refused = await invoke(secret, tool, args);
        expect([refused.status, refused.body.error.code], `${scopes} ${tool}`).toEqual([403, 'TOKEN_SCOPE']);
      }
    }
    expect((await owner.get(`/tasks/${fresh}/attempts`)).body.attempts).toEqual([]);
    expect((await owner.get(`/attempts/${attempt}`)).body).toMatchObject({
      state: 'completed',
      landed_commit: null,
    });
    // The same user's mcp token may: the refusals were the scopes'.
    const landed = await invoke(await token(['mcp']), 'task.land', { id: task, strategy: 'merge' });
    expect(landed.status, JSON.stringify(landed.body)).toBe(200);
    expect((await owner.get(`/attempts/${attempt}`)).body.landed_commit).toBe(landed.body.result.commit);
  });
});

describe('project visibility', () => {
  test('a user who is not a member sees neither the project nor its tasks (404, not 403)', async () => {
    const hidden = await newProject('owner');
    const task = await newTask(hidden);
    const developer = clients.get('developer')!;
    expect((await developer.get('/projects')).body.projects.map((p: { id: number }) => p.id)).not.toContain(
      hidden,
    );
    for (const route of [
      `/projects/${hidden}`,
      `/projects/${hidden}/tasks`,
      `/projects/${hidden}/files`,
      `/projects/${hidden}/git/status`,
    ]) {
      const answer = await developer.get(route);
      expect(answer.status, route).toBe(404);
    }
    expect((await developer.patch(`/tasks/${task}`, { title: 'mine now' })).status).toBe(404);
  });

  test('a member lists only their projects, each with their role', async () => {
    const viewer = clients.get('viewer')!;
    const listed = (await viewer.get('/projects')).body.projects;
    expect(listed.length).toBeGreaterThan(0);
    for (const project of listed) expect(project.role).toBe('viewer');
    expect(listed.map((p: { id: number }) => p.id)).toContain(sharedProject);
  });

  test('a membership holds operator, developer or viewer; owner and admin are global roles', async () => {
    for (const role of ['owner', 'admin', 'root']) {
      const answer = await owner.post(`/projects/${sharedProject}/members`, { username: 'bystander', role });
      expect(answer.status, role).toBe(400);
    }
    const set = await owner.post(`/projects/${sharedProject}/members`, {
      username: 'bystander',
      role: 'developer',
    });
    expect(set.body).toMatchObject({ username: 'bystander', role: 'developer' });
    const members = (await owner.get(`/projects/${sharedProject}/members`)).body.members;
    expect(members.find((m: { username: string }) => m.username === 'bystander').role).toBe('developer');
  });

  test('nobody grants a role above their own (admin cannot create an owner)', async () => {
    const admin = clients.get('admin')!;
    const answer = await admin.post('/users', {
      username: 'usurper',
      password: 'a long password 1',
      role: 'owner',
    });
    expect(answer.status).toBe(403);
    expect(answer.body.error.code).toBe('ROLE_TOO_HIGH');
  });

  test('deleting a project removes its metadata only: the folder and its files stay', async () => {
    const id = await newProject('owner');
    expect((await owner.delete(`/projects/${id}`)).status).toBe(204);
    expect((await owner.get(`/projects/${id}`)).status).toBe(404);
    expect(git(repo, 'ls-files')).toContain('README.md');
  });
});

describe('the session tells the UI its permissions', () => {
  test("/me answers the global role's permissions, as the README table grants them", async () => {
    for (const role of roleNames) {
      const me = await clients.get(role)!.get('/me');
      expect(me.status, role).toBe(200);
      expect([...me.body.permissions].sort(), role).toEqual([...granted[role]!].sort());
    }
  });

  test('login answers them too, and a role change shows in the next /me', async () => {
    const password = 'shifter password 123';
    const created = await owner.post('/users', { username: 'shifter', password, role: 'operator' });
    expect(created.status).toBe(201);
    const client = new Client(daemon.url);
    const login = await client.post('/login', { username: 'shifter', password });
    expect(login.status).toBe(200);
    expect([...login.body.permissions].sort()).toEqual([...granted.operator!].sort());
    expect(login.body.permissions).toContain('services.control');
    expect((await owner.patch(`/users/${created.body.id}`, { role: 'viewer' })).status).toBe(200);
    const me = await client.get('/me');
    expect([...me.body.permissions].sort()).toEqual([...granted.viewer!].sort());
    expect(me.body.permissions).not.toContain('services.control');
  });
});

describe('user management', () => {
  test('a role change applies to the next request; disabling ends the sessions', async () => {
    const { client, id } = await userClient(daemon, owner, 'mover', 'developer');
    const project = await newProject('owner');
    await owner.post(`/projects/${project}/members`, { user_id: id, role: 'developer' });
    const write = () =>
      client.post(`/projects/${project}/files/write`, { path: `${unique('m')}.txt`, content: 'x' });
    expect((await write()).status).toBe(201);
    expect((await owner.patch(`/users/${id}`, { role: 'viewer' })).body.role).toBe('viewer');
    // The membership still says developer, but the global role caps it.
    expect((await write()).status).toBe(403);
    const listed = (await client.get('/projects')).body.projects.find(
      (p: { id: number }) => p.id === project,
    );
    expect(listed.role).toBe('viewer');
    expect((await owner.patch(`/users/${id}`, { disabled: true })).body.disabled).toBe(true);
    expect((await client.get('/me')).status).toBe(401);
  });

  test('nobody touches a stronger account, and the last owner stays an enabled owner', async () => {
    const admin = clients.get('admin')!;
    const ownerId = (await owner.get('/me')).body.user.id;
    expect((await admin.patch(`/users/${ownerId}`, { disabled: true })).body.error.code).toBe(
      'ROLE_TOO_HIGH',
    );
    expect((await admin.patch(`/users/${userIds.get('viewer')}`, { role: 'owner' })).body.error.code).toBe(
      'ROLE_TOO_HIGH',
    );
    for (const patch of [{ role: 'admin' }, { disabled: true }]) {
      const answer = await owner.patch(`/users/${ownerId}`, patch);
      expect(answer.status).toBe(409);
      expect(answer.body.error.code).toBe('LAST_OWNER');
    }
    expect((await owner.patch('/users/no-such-id', { display_name: 'x' })).status).toBe(404);
  });
});
