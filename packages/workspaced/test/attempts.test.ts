/**
 * @module Tests: agent profiles and attempts through the bin, with stand-in agents named like
 * each built-in profile on the daemon's PATH (test/support/stand-in-agents.ts): the profile
 * list (installed or not, configured profiles, environment values hidden from non-admins), an
 * attempt per profile reading its prompt as that agent does and working in its own worktree,
 * exit codes driving the attempt and the task (review; failed with an attention item), follow-up
 * typed into a running agent or restarting it, stop, the prompt kept off the shell, the terminal
 * list and the log, and the refusals.
 */
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { attemptEnded, newTask, runAttempt, startAttemptDaemon } from './support/attempts.js';
import { type Client, type RunningDaemon, userClient } from './support/daemon.js';
import { git } from './support/git-repo.js';
import { stopProjectDaemon } from './support/project-daemon.js';
import { scratchDir } from './support/scratch.js';
import { standInAgentNames } from './support/stand-in-agents.js';
import { openSocket } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let projectDir: string;
let agentsDir: string;

beforeAll(async () => {
  const configDir = await scratchDir('config');
  const config = path.join(configDir, 'config.json');
  await writeFile(
    config,
    JSON.stringify({
      agent_profiles: [
        {
          name: 'scripted',
          command: 'claude',
          args: ['-p', '--permission-mode', 'acceptEdits', '{prompt}'],
          env: { AGENT_API_KEY: 'secret-key-value' },
          prompt_via: 'argument',
        },
        { name: 'absent', command: 'no-such-agent-here', args: [], prompt_via: 'stdin' },
      ],
    }),
  );
  ({ daemon, owner, projectId, projectDir, agentsDir } = await startAttemptDaemon('attempts', {
    args: ['--config', config],
  }));
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
});

const branchFiles = (branch: string) =>
  git(projectDir, 'ls-tree', '-r', '--name-only', branch).split('\n').filter(Boolean);

test('GET /agent-profiles lists built-ins and configured profiles, installed or not, env hidden from non-admins', async () => {
  const answer = await owner.get('/agent-profiles');
  expect(answer.status).toBe(200);
  const byName = Object.fromEntries(answer.body.profiles.map((p: { name: string }) => [p.name, p]));
  expect(Object.keys(byName)).toEqual([...standInAgentNames, 'scripted', 'absent']);
  expect(byName.claude).toEqual({
    name: 'claude',
    command: 'claude',
    args: ['-p', '--permission-mode', 'acceptEdits', '{prompt}'],
    env: {},
    prompt_via: 'argument',
    built_in: true,
    installed: true,
    path: path.join(agentsDir, 'claude'),
  });
  expect(byName.codex).toMatchObject({
    prompt_via: 'stdin',
    args: ['exec', '--sandbox', 'workspace-write', '-'],
  });
  expect(byName.aider).toMatchObject({
    prompt_via: 'file',
    args: ['--yes-always', '--message-file', '{prompt_file}'],
  });
  expect(byName.absent).toMatchObject({ built_in: false, installed: false, path: null });
  expect(byName.scripted.env).toEqual({ AGENT_API_KEY: 'secret-key-value' });

  const { client: developer } = await userClient(daemon, owner, 'dev-profiles', 'developer');
  const seen = (await developer.get('/agent-profiles')).body.profiles;
  expect(seen.find((p: { name: string }) => p.name === 'scripted').env).toEqual({
    AGENT_API_KEY: '<hidden>',
  });
});

test.each(standInAgentNames)(
  '%s: the agent gets its prompt its own way and works in the task worktree',
  async (agent) => {
    const task = await newTask(owner, projectId, `Make ${agent} work`);
    const started = await owner.post(`/tasks/${task.id}/attempts`, {
      profile: agent,
      prompt: `write ${agent}.txt made by ${agent} ;; commit add ${agent}.txt ;; write notes/${agent}.md not committed ;; exit 0`,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    expect(started.body).toMatchObject({
      task_id: task.id,
      profile: agent,
      branch: `agent/${task.id}-make-${agent}-work`,
      base_branch: 'main',
      state: 'running',
    });
    expect(started.body.terminal_id).toEqual(expect.any(Number));
    expect(new Date(started.body.started_at).toISOString()).toBe(started.body.started_at);
    // The stand-in may have finished already (a CI run saw it): then the task is in review.
    expect(['running', 'review']).toContain(
      (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find(
        (t: { id: number }) => t.id === task.id,
      ).state,
    );

    const ended = await attemptEnded(owner, started.body.id);
    expect(ended).toMatchObject({ state: 'completed', exit_code: 0 });
    const worktree = ended.worktree_path as string;
    expect(await readFile(path.join(worktree, `${agent}.txt`), 'utf8')).toBe(`made by ${agent}`);
    expect(await readFile(path.join(worktree, 'notes', `${agent}.md`), 'utf8')).toBe('not committed');
    expect(branchFiles(started.body.branch)).toContain(`${agent}.txt`);
    expect(branchFiles(started.body.branch)).not.toContain(`notes/${agent}.md`);
    expect(branchFiles('main')).not.toContain(`${agent}.txt`);
    const task2 = (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find(
      (t: { id: number }) => t.id === task.id,
    );
    expect(task2).toMatchObject({ state: 'review', branch: started.body.branch, worktree_path: worktree });
    // No prompt file is left behind (file and stdin profiles).
    expect(await readdir(path.join(daemon.dataDir, 'prompts')).catch(() => [])).toEqual([]);
  },
);

test('the default prompt is the task title and description; later attempts keep their own branch and worktree', async () => {
  const task = await newTask(owner, projectId, 'print hello ;; write a.txt first', 'exit 0');
  const first = await owner.post(`/tasks/${task.id}/attempts`, { profile: 'opencode' });
  expect(first.status).toBe(201);
  const ended = await attemptEnded(owner, first.body.id);
  expect(ended.state).toBe('completed');
  expect(await readFile(path.join(ended.worktree_path, 'a.txt'), 'utf8')).toBe('first');

  const second = await runAttempt(owner, task.id, {
    profile: 'gemini',
    prompt: 'write a.txt second ;; commit second try',
  });
  expect(second).toMatchObject({
    state: 'completed',
    branch: `agent/${task.id}.2-print-hello-write-a-txt-first`,
  });
  expect(second.worktree_path).toBe(`${ended.worktree_path}.2`);
  expect(await readFile(path.join(ended.worktree_path, 'a.txt'), 'utf8')).toBe('first');
  expect(await readFile(path.join(second.worktree_path, 'a.txt'), 'utf8')).toBe('second');
  const listed = (await owner.get(`/tasks/${task.id}/attempts`)).body.attempts;
  expect(listed.map((a: { id: number }) => a.id)).toEqual([second.id, first.body.id]);
});

test('the terminal socket shows the agent output; the prompt reaches the agent verbatim, with no shell', async () => {
  const task = await newTask(owner, projectId, 'shell characters');
  const marker = path.join(projectDir, 'pwned');
  const prompt = `print $(touch ${marker}) \`touch ${marker}\` ; touch ${marker} && echo 'quoted' "$HOME"`;
  const started = await owner.post(`/tasks/${task.id}/attempts`, {
    profile: 'claude',
    prompt: `${prompt} ;; wait`,
  });
  expect(started.status).toBe(201);
  const socket = await openSocket(daemon, owner, `/terminals/${started.body.terminal_id}/ws`);
  await socket.until(() => socket.output.includes('claude waiting for input'), 'the agent waiting');
  expect(socket.output).toContain(`claude received: ${prompt} ;; wait`);
  // GET /terminals shows the profile's arguments without the prompt.
  const terminal = (await owner.get('/terminals')).body.terminals.find(
    (t: { id: number }) => t.id === started.body.terminal_id,
  );
  expect(terminal.args).toEqual(['-p', '--permission-mode', 'acceptEdits', '<prompt>']);
  expect(JSON.stringify(terminal)).not.toContain('touch');
  const followed = await owner.post(`/attempts/${started.body.id}/follow-up`, {
    prompt: 'print typed in ;; exit 0',
  });
  expect(followed.status).toBe(200);
  expect(followed.body).toMatchObject({
    id: started.body.id,
    delivered: 'typed',
    terminal_id: started.body.terminal_id,
  });
  await socket.until(() => socket.output.includes('claude got: print typed in ;; exit 0'), 'the follow-up');
  expect((await attemptEnded(owner, started.body.id)).state).toBe('completed');
  await socket.close();
  expect(await stat(marker).catch(() => null)).toBeNull();
  expect(daemon.output()).not.toContain('touch');
});

test('a follow-up after the agent exited starts the profile again in the same worktree', async () => {
  const task = await newTask(owner, projectId, 'restart me');
  const first = await runAttempt(owner, task.id, { profile: 'aider', prompt: 'write one.txt 1 ;; exit 0' });
  const again = await owner.post(`/attempts/${first.id}/follow-up`, { prompt: 'write two.txt 2 ;; exit 0' });
  expect(again.status).toBe(200);
  expect(again.body).toMatchObject({ id: first.id, delivered: 'restarted', state: 'running' });
  expect(again.body.terminal_id).not.toBe(first.terminal_id);
  const ended = await attemptEnded(owner, first.id);
  expect(ended).toMatchObject({ state: 'completed', worktree_path: first.worktree_path });
  expect(await readFile(path.join(first.worktree_path, 'one.txt'), 'utf8')).toBe('1');
  expect(await readFile(path.join(first.worktree_path, 'two.txt'), 'utf8')).toBe('2');
});

test('a non-zero exit fails the attempt and the task, with an attention item', async () => {
  const task = await newTask(owner, projectId, 'doomed');
  const ended = await runAttempt(owner, task.id, { profile: 'codex', prompt: 'print trying ;; exit 3' });
  expect(ended).toMatchObject({ state: 'failed', exit_code: 3 });
  const now = (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find(
    (t: { id: number }) => t.id === task.id,
  );
  expect(now.state).toBe('failed');
  const items = (await owner.get('/attention')).body.items;
  expect(items.find((item: { resource: string }) => item.resource === `task:${task.id}`)).toMatchObject({
    kind: 'task.failed',
    resolved_at: null,
  });
});

/** Reads `route` until `pick` finds something in its answer (the daemon looks every 2 s). */
// biome-ignore lint/suspicious/noExplicitAny: JSON answers are inspected field by field
async function eventually<T>(route: string, pick: (body: any) => T | undefined): Promise<T | undefined> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const found = pick((await owner.get(route)).body);
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

test('stop ends a running agent: the attempt is stopped, the task back to todo; stopping again is 409', async () => {
  const task = await newTask(owner, projectId, 'stop me');
  const started = await owner.post(`/tasks/${task.id}/attempts`, { profile: 'cursor-agent', prompt: 'wait' });
  const socket = await openSocket(daemon, owner, `/terminals/${started.body.terminal_id}/ws`);
  await socket.until(() => socket.output.includes('waiting for input'), 'the agent waiting');
  // The agent is the terminal's own process (no shell above it): detected all the same, and its
  // waiting raises the attention item.
  const terminalId = started.body.terminal_id;
  expect(
    await eventually('/agents', (body) =>
      body.agents.find((agent: { terminal_id: number }) => agent.terminal_id === terminalId),
    ),
  ).toMatchObject({ agent: 'cursor-agent', detected_by: 'process', state: 'waiting_for_input' });
  expect(
    await eventually('/attention', (body) =>
      body.items.find((item: { resource: string }) => item.resource === `agent:terminal:${terminalId}`),
    ),
  ).toMatchObject({ kind: 'agent.blocked', resolved_at: null });
  const stopped = await owner.post(`/attempts/${started.body.id}/stop`);
  expect(stopped.status).toBe(200);
  expect(stopped.body).toMatchObject({ state: 'stopped' });
  expect(
    (await owner.get(`/projects/${projectId}/tasks`)).body.tasks.find((t: { id: number }) => t.id === task.id)
      .state,
  ).toBe('todo');
  const again = await owner.post(`/attempts/${started.body.id}/stop`);
  expect([again.status, again.body.error.code]).toEqual([409, 'ATTEMPT_NOT_RUNNING']);
  await socket.close();
});

test('refusals: unknown or missing profile, bad base branch and prompt, roles and membership', async () => {
  const task = await newTask(owner, projectId, 'refusals');
  const cases: [Record<string, unknown>, number, string][] = [
    [{ profile: 'nobody' }, 404, 'AGENT_PROFILE_NOT_FOUND'],
    [{ profile: 'absent' }, 424, 'AGENT_UNAVAILABLE'],
    [{ profile: 'claude', base_branch: 'no-such-branch' }, 404, 'GIT_REF_NOT_FOUND'],
    [{ profile: 'claude', base_branch: '-x' }, 400, 'INVALID_REF_NAME'],
    [{ profile: 'claude', prompt: 'a\0b' }, 400, 'VALIDATION_FAILED'],
    [{ profile: 'claude', prompt: '   ' }, 400, 'VALIDATION_FAILED'],
    [{ profile: 'claude', extra: 1 }, 400, 'VALIDATION_FAILED'],
  ];
  for (const [body, status, code] of cases) {
    const answer = await owner.post(`/tasks/${task.id}/attempts`, body);
    expect([JSON.stringify(body), answer.status, answer.body.error?.code]).toEqual([
      JSON.stringify(body),
      status,
      code,
    ]);
  }
  expect((await owner.get(`/tasks/${task.id}/attempts`)).body.attempts).toEqual([]);

  const { client: viewer, id: viewerId } = await userClient(daemon, owner, 'viewer-attempts', 'viewer');
  const { client: outsider } = await userClient(daemon, owner, 'outsider-attempts', 'developer');
  await owner.post(`/projects/${projectId}/members`, { user_id: viewerId, role: 'viewer' });
  expect((await viewer.post(`/tasks/${task.id}/attempts`, { profile: 'claude' })).body.error.code).toBe(
    'PERMISSION_DENIED',
  );
  expect((await outsider.post(`/tasks/${task.id}/attempts`, { profile: 'claude' })).status).toBe(404);
  const done = await runAttempt(owner, task.id, { profile: 'claude', prompt: 'exit 0' });
  expect((await viewer.get(`/attempts/${done.id}`)).status).toBe(200);
  expect((await outsider.get(`/attempts/${done.id}`)).status).toBe(404);
  expect((await viewer.post(`/attempts/${done.id}/follow-up`, { prompt: 'x' })).body.error.code).toBe(
    'PERMISSION_DENIED',
  );
  expect((await outsider.post(`/attempts/${done.id}/stop`)).status).toBe(404);
  expect((await owner.get('/attempts/999999')).status).toBe(404);
});
