/**
 * @module Tests: landing guarded by a workflow approval, through the bin with stand-in agents and
 * real git. A run `[agent step, approval, land]` started on a task lands it only after someone
 * with agent.approve approved (a developer cannot), as its starter; the project setting
 * `land_requires_workflow` refuses every other landing; a conflict fails the run with its code
 * and changes nothing; the starter's right to land is checked again when the land step runs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { landingState, newTask, runAttempt, startAttemptDaemon } from './support/attempts.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { createRepo, git } from './support/git-repo.js';
import { stopProjectDaemon } from './support/project-daemon.js';

let daemon: RunningDaemon;
let owner: Client;
let developer: { client: Client; id: string };
let operator: { client: Client; id: string };
let counter = 0;

beforeAll(async () => {
  ({ daemon, owner } = await startAttemptDaemon('workflow-land'));
  developer = await userClient(daemon, owner, 'developer', 'developer');
  operator = await userClient(daemon, owner, 'operator', 'operator');
  for (const [name, steps] of Object.entries({
    'reviewed-land': [
      { name: 'tests', kind: 'agent', command: 'git log --oneline -1' },
      { name: 'approve', kind: 'approval' },
      { name: 'land', kind: 'land' },
    ],
    'land-now': [{ name: 'land', kind: 'land', strategy: 'squash' }],
  })) {
    const defined = await owner.post('/workflows', { name, steps });
    expect(defined.status, JSON.stringify(defined.body)).toBe(201);
  }
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

/** A project of its own (a repository on main) with the developer and the operator as members. */
async function newProject() {
  const dir = await createRepo({ 'README.md': 'line one\n' });
  const created = await owner.post('/projects', { name: `land${++counter}`, path: dir });
  const id = created.body.id as number;
  for (const [user, role] of [
    [developer, 'developer'],
    [operator, 'operator'],
  ] as const)
    await owner.post(`/projects/${id}/members`, { user_id: user.id, role });
  return { id, dir };
}

/** A task of the project with a completed attempt whose agent ran `steps`. */
async function reviewedTask(projectId: number, steps: string) {
  const task = await newTask(owner, projectId, `task ${++counter}`);
  const attempt = await runAttempt(owner, task.id, { profile: 'claude', prompt: `${steps} ;; exit 0` });
  expect(attempt.state).toBe('completed');
  return { task, attempt };
}

/** Polls the run until no agent step of it runs any more. */
async function runSettled(id: number) {
  for (const deadline = Date.now() + 30_000; ; ) {
    const run = (await owner.get(`/workflow-runs/${id}`)).body;
    if (run.status !== 'running') return run;
    if (Date.now() > deadline) throw new Error(`run ${id} still running: ${JSON.stringify(run)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const taskState = async (projectId: number, taskId: number) =>
  (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find((t: { id: number }) => t.id === taskId)
    .state;

test('the land step lands only after an approval by someone with agent.approve', async () => {
  const project = await newProject();
  const { task, attempt } = await reviewedTask(
    project.id,
    'write guarded.txt reviewed ;; commit add guarded',
  );
  const branchTip = git(project.dir, 'rev-parse', `refs/heads/${attempt.branch}`).trim();
  const mainBefore = git(project.dir, 'rev-parse', 'main').trim();

  const started = await developer.client.post('/workflows/reviewed-land/start', {
    project_id: project.id,
    task_id: task.id,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect(started.body.task_id).toBe(task.id);
  const waiting = await runSettled(started.body.id);
  expect(waiting.status).toBe('waiting_approval');
  expect(waiting.steps.map((step: { status: string }) => step.status)).toEqual([
    'completed',
    'waiting_approval',
    'pending',
  ]);
  expect(git(project.dir, 'rev-parse', 'main').trim()).toBe(mainBefore);

  const refused = await developer.client.post(`/workflow-runs/${started.body.id}/approve`);
  expect([refused.status, refused.body.error.code]).toEqual([403, 'PERMISSION_DENIED']);
  expect(git(project.dir, 'rev-parse', 'main').trim()).toBe(mainBefore);

  const approved = await operator.client.post(`/workflow-runs/${started.body.id}/approve`);
  expect(approved.status, JSON.stringify(approved.body)).toBe(200);
  const landedCommit = git(project.dir, 'rev-parse', 'main').trim();
  expect(approved.body).toMatchObject({ status: 'completed', error: null, task_id: task.id });
  expect(approved.body.steps[1]).toMatchObject({ status: 'completed', decided_by: operator.id });
  expect(approved.body.steps[2]).toMatchObject({
    kind: 'land',
    status: 'completed',
    strategy: 'merge',
    land_error: null,
    landed: { commit: landedCommit, attempt_id: attempt.id, branch: attempt.branch, base_branch: 'main' },
  });
  // A merge commit of the old main and the branch, checked out in the project's work tree.
  expect(git(project.dir, 'rev-parse', 'main^1', 'main^2').trim().split('\n')).toEqual([
    mainBefore,
    branchTip,
  ]);
  expect(await readFile(path.join(project.dir, 'guarded.txt'), 'utf8')).toBe('reviewed');
  expect(git(project.dir, 'status', '--porcelain').trim()).toBe('');
  expect(await taskState(project.id, task.id)).toBe('done');
  expect((await owner.get(`/attempts/${attempt.id}`)).body.landed_commit).toBe(landedCommit);
}, 120_000);

test('land_requires_workflow refuses a direct landing and every other workflow', async () => {
  const project = await newProject();
  const { task, attempt } = await reviewedTask(project.id, 'write only.txt via approval ;; commit only');
  const setting = (client: Client, value: unknown) =>
    client.patch(`/projects/${project.id}`, { land_requires_workflow: value });

  for (const [value, code] of [
    ['no-such-workflow', 'LAND_WORKFLOW_INVALID'],
    ['land-now', 'LAND_WORKFLOW_INVALID'],
  ] as const) {
    const answer = await setting(owner, value);
    expect([answer.status, answer.body.error.code, answer.body.error.workflow]).toEqual([422, code, value]);
  }
  expect((await setting(owner, 'bad name!')).status).toBe(400);
  expect((await setting(developer.client, 'reviewed-land')).status).toBe(403);
  const set = await setting(owner, 'reviewed-land');
  expect(set.status, JSON.stringify(set.body)).toBe(200);
  expect(set.body.land_requires_workflow).toBe('reviewed-land');
  expect((await developer.client.get(`/projects/${project.id}`)).body.land_requires_workflow).toBe(
    'reviewed-land',
  );

  const before = landingState(project.dir, attempt.worktree_path);
  const direct = await owner.post(`/tasks/${task.id}/land`, { strategy: 'merge' });
  expect([direct.status, direct.body.error.code, direct.body.error.workflow]).toEqual([
    409,
    'LAND_REQUIRES_APPROVAL',
    'reviewed-land',
  ]);
  const other = await owner.post('/workflows/land-now/start', { task_id: task.id });
  expect([other.status, other.body.error?.code]).toEqual([409, 'LAND_REQUIRES_APPROVAL']);
  expect(landingState(project.dir, attempt.worktree_path)).toEqual(before);
  expect(await taskState(project.id, task.id)).toBe('review');

  // Without project_id the run goes to the task's project.
  const started = await owner.post('/workflows/reviewed-land/start', { task_id: task.id });
  expect([started.status, started.body.project_id]).toEqual([201, project.id]);
  expect((await runSettled(started.body.id)).status).toBe('waiting_approval');
  const approved = await operator.client.post(`/workflow-runs/${started.body.id}/approve`);
  expect(approved.body.status, JSON.stringify(approved.body)).toBe('completed');
  expect(await readFile(path.join(project.dir, 'only.txt'), 'utf8')).toBe('via approval');
  expect(await taskState(project.id, task.id)).toBe('done');

  expect((await setting(owner, null)).body.land_requires_workflow).toBeNull();
}, 120_000);

test('a conflict in the land step fails the run with its code and an attention item, changing nothing', async () => {
  const project = await newProject();
  const { task, attempt } = await reviewedTask(project.id, 'write README.md from the agent ;; commit agent');
  await writeFile(path.join(project.dir, 'README.md'), 'from main\n');
  git(project.dir, 'commit', '-q', '-am', 'main edits the README');
  const before = landingState(project.dir, attempt.worktree_path);

  const run = await owner.post('/workflows/land-now/start', { project_id: project.id, task_id: task.id });
  expect(run.status, JSON.stringify(run.body)).toBe(201);
  expect(run.body.status).toBe('failed');
  expect(run.body.error).toContain('LAND_CONFLICT');
  expect(run.body.steps[0]).toMatchObject({
    status: 'failed',
    strategy: 'squash',
    landed: null,
    land_error: { code: 'LAND_CONFLICT', paths: ['README.md'] },
  });
  expect(landingState(project.dir, attempt.worktree_path)).toEqual(before);
  expect(await taskState(project.id, task.id)).toBe('review');
  const items = (await owner.get('/attention')).body.items;
  expect(items).toContainEqual(
    expect.objectContaining({
      kind: 'workflow.failed',
      resource: `workflow-run:${run.body.id}`,
      resolved_at: null,
    }),
  );
}, 120_000);

test("the land step checks the starter's right again when it runs", async () => {
  const project = await newProject();
  const { task, attempt } = await reviewedTask(project.id, 'write demoted.txt x ;; commit demoted');
  const started = await developer.client.post('/workflows/reviewed-land/start', { task_id: task.id });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  expect((await runSettled(started.body.id)).status).toBe('waiting_approval');
  await owner.post(`/projects/${project.id}/members`, { user_id: developer.id, role: 'viewer' });
  const before = landingState(project.dir, attempt.worktree_path);

  const approved = await operator.client.post(`/workflow-runs/${started.body.id}/approve`);
  expect(approved.body).toMatchObject({ status: 'failed' });
  expect(approved.body.error).toContain('PERMISSION_DENIED');
  expect(approved.body.steps[2].land_error).toMatchObject({
    code: 'PERMISSION_DENIED',
    permission: 'git.write',
  });
  expect(landingState(project.dir, attempt.worktree_path)).toEqual(before);
  expect(await taskState(project.id, task.id)).toBe('review');
}, 120_000);

test('a land step needs a task of the project and a starter who may land; definitions are checked', async () => {
  const project = await newProject();
  const elsewhere = await newProject();
  const task = await newTask(owner, project.id, 'not started');
  const start = (client: Client, body: Record<string, unknown>) =>
    client.post('/workflows/reviewed-land/start', body);

  const missing = await start(owner, { project_id: project.id });
  expect([missing.status, missing.body.error.code]).toEqual([422, 'TASK_REQUIRED']);
  expect((await start(owner, { project_id: elsewhere.id, task_id: task.id })).status).toBe(404);
  expect((await start(owner, { task_id: 999_999 })).status).toBe(404);

  for (const steps of [
    [{ name: 'land', kind: 'land', command: 'true' }],
    [{ name: 'run', kind: 'agent', command: 'true', strategy: 'merge' }],
    [{ name: 'land', kind: 'land', strategy: 'octopus' }],
    [
      { name: 'one', kind: 'land' },
      { name: 'two', kind: 'land' },
    ],
  ]) {
    const answer = await owner.post('/workflows', { name: `bad${++counter}`, steps });
    expect([answer.status, answer.body.error?.code], JSON.stringify(steps)).toEqual([
      400,
      'VALIDATION_FAILED',
    ]);
  }
}, 120_000);
