#!/usr/bin/env node
/**
 * @module Benchmark of attempts and review (issue 27), against baselines measured in the same run
 * and alternating with them:
 * - diff: `GET /tasks/{id}/diff` of a task branch with 2,000 changed files (1,500 modified, 500
 *   added; committed) against `git diff main...<branch>` run directly. Target: within 1.5x.
 * - first byte: from sending `POST /tasks/{id}/attempts` until the agent's first output byte
 *   arrives on the terminal socket, against the agent's own start (the same script spawned
 *   directly until its first stdout byte). Target: under 150 ms plus the agent's own start.
 *
 * Run: npm run build -w packages/workspaced && flock /tmp/heavy.lock node packages/workspaced/bench/attempts.mjs
 * Env: BENCH_ROUNDS (default 30), BENCH_KEEP=1 keeps the /tmp data.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { gitEnv, loadAverage, measure, row, signIn, startDaemon } from './bench-kit.mjs';

const run = promisify(execFile);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
const git = (cwd, ...args) =>
  execFileSync('git', args, { cwd, env: gitEnv, maxBuffer: 256 << 20 }).toString();

/** 100 folders of 30 files of 40 lines: 3,000 tracked files. */
async function generateRepository(dir) {
  git(tmpdir(), 'init', '-q', '-b', 'main', dir);
  for (let folder = 0; folder < 100; folder++) {
    await mkdir(path.join(dir, `pkg-${folder}`));
    await Promise.all(
      Array.from({ length: 30 }, (_, file) =>
        writeFile(
          path.join(dir, `pkg-${folder}`, `file-${file}.ts`),
          Array.from(
            { length: 40 },
            (_, line) => `export const v${line} = ${folder * 1000 + file * 40 + line};`,
          ).join('\n'),
        ),
      ),
    );
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'generated');
}

/** The task branch: 1,500 files get 4 changed lines each, 500 new files; one commit. */
async function changeWorktree(dir) {
  for (let n = 0; n < 1_500; n++) {
    const file = path.join(dir, `pkg-${n % 100}`, `file-${Math.floor(n / 100)}.ts`);
    const lines = Array.from({ length: 40 }, (_, line) =>
      line % 10 === 3
        ? `export const changed${line} = ${n};`
        : `export const v${line} = ${(n % 100) * 1000 + Math.floor(n / 100) * 40 + line};`,
    );
    await writeFile(file, lines.join('\n'));
  }
  for (let n = 0; n < 500; n++)
    await writeFile(path.join(dir, `pkg-${n % 100}`, `new-${n}.ts`), `export const added = ${n};\n`);
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'agent work');
}

const work = await mkdtemp(path.join(tmpdir(), 'workspaced-bench-attempts-'));
const repo = path.join(work, 'repo');
const small = path.join(work, 'small');
const agent = path.join(work, 'bench-agent');
// The agent: prints at once, then stays (a real agent keeps working), so the socket attaches to a live terminal.
await writeFile(agent, '#!/bin/sh\necho "agent up"\nexec sleep 30\n');
await chmod(agent, 0o755);
await writeFile(
  path.join(work, 'config.json'),
  JSON.stringify({
    agent_profiles: [
      { name: 'bench', command: agent, args: ['{prompt}'], prompt_via: 'argument' },
      { name: 'noop', command: 'true', args: ['{prompt}'], prompt_via: 'argument' },
    ],
  }),
);
console.log(`generating under ${work} ...`);
await generateRepository(repo);
git(tmpdir(), 'init', '-q', '-b', 'main', small);
await writeFile(path.join(small, 'README.md'), 'small\n');
git(small, 'add', '-A');
git(small, 'commit', '-q', '-m', 'small');

const daemon = await startDaemon(path.join(work, 'data'), {
  args: ['--config', path.join(work, 'config.json')],
});
const origin = daemon.url;
try {
  const { csrf, cookie } = await signIn(daemon.url);
  const api = async (method, route, body) => {
    const response = await fetch(`${daemon.url}/api/v1${route}`, {
      method,
      headers: {
        cookie,
        ...(method === 'GET' ? {} : { 'content-type': 'application/json', 'x-workspaced-csrf': csrf }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (response.status >= 300)
      throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  const project = await api('POST', '/projects', { name: 'bench', path: repo });
  const task = await api('POST', `/projects/${project.id}/tasks`, { title: 'bench diff' });
  const attempt = await api('POST', `/tasks/${task.id}/attempts`, { profile: 'noop', prompt: 'x' });
  await changeWorktree(attempt.worktree_path);
  const diff = await api('GET', `/tasks/${task.id}/diff`);
  console.log(
    `diff: ${diff.files.length} files changed (+${diff.additions} -${diff.deletions}), truncated ${diff.truncated}; load average before: ${loadAverage()}; rounds: ${rounds}\n`,
  );
  const [direct, daemonDiff] = await measure(
    [
      {
        label: 'git diff main...<branch> (direct, baseline)',
        work: () => run('git', ['diff', `main...${attempt.branch}`], { cwd: repo, maxBuffer: 256 << 20 }),
      },
      { label: 'GET /tasks/{id}/diff (daemon)', work: () => api('GET', `/tasks/${task.id}/diff`) },
    ],
    rounds,
  );
  console.log(row(direct));
  console.log(row(daemonDiff, direct), '(target <= 1.5x)');

  const smallProject = await api('POST', '/projects', { name: 'small', path: small });
  const smallTask = await api('POST', `/projects/${smallProject.id}/tasks`, { title: 'first byte' });
  const firstByte = async () => {
    const start = process.hrtime.bigint();
    const started = await api('POST', `/tasks/${smallTask.id}/attempts`, { profile: 'bench', prompt: 'go' });
    await new Promise((resolve, reject) => {
      const ws = new WebSocket(
        `${daemon.url.replace('http', 'ws')}/api/v1/terminals/${started.terminal_id}/ws`,
        {
          headers: { cookie, origin },
        },
      );
      ws.once('message', () => {
        ws.close();
        resolve();
      });
      ws.once('error', reject);
    });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    await api('POST', `/attempts/${started.id}/stop`);
    return elapsed;
  };
  const ownStart = () =>
    new Promise((resolve) => {
      const start = process.hrtime.bigint();
      const child = spawn(agent, ['go'], { stdio: ['ignore', 'pipe', 'ignore'] });
      child.stdout.once('data', () => {
        const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
        child.kill('SIGKILL');
        resolve(elapsed);
      });
    });
  const [own, daemonFirst] = await measure(
    [
      { label: "the agent's own start (spawn to first byte)", work: ownStart },
      { label: 'POST attempts to first byte on the socket', work: firstByte },
    ],
    rounds,
    2,
  );
  console.log(`\n${row(own)}`);
  console.log(
    row(daemonFirst),
    `(daemon's share: median ${(daemonFirst.median - own.median).toFixed(1)} ms; target < 150 ms)`,
  );
  console.log(`\nload average after: ${loadAverage()}`);
} finally {
  daemon.child.kill('SIGTERM');
  if (!process.env.BENCH_KEEP) await rm(work, { recursive: true, force: true });
}
