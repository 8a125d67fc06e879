#!/usr/bin/env node
/**
 * @module Benchmark: `GET /projects/{id}/git/status` on a generated repository (20,000 tracked
 * files, 500 of them changed) against `git status --porcelain=v2` run directly in the same run,
 * and `GET /projects/{id}/files` of a 5,000-entry folder against reading the same folder
 * in-process (readdir + lstat) and with `ls -l`. Everything is generated under /tmp.
 *
 * Run: npm run build -w packages/workspaced && flock /tmp/heavy.lock npm run bench -w packages/workspaced
 * Env: BENCH_ROUNDS (default 30 timed requests per measurement), BENCH_KEEP=1 keeps /tmp data.
 */
import { execFile, execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gitEnv, loadAverage, measure, row, signIn, startDaemon } from './bench-kit.mjs';

const run = promisify(execFile);
const rounds = Number(process.env.BENCH_ROUNDS ?? 30);

async function generateRepository(dir) {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  // 200 folders of 100 files: a typical source tree's depth, not one flat folder.
  for (let folder = 0; folder < 200; folder++) {
    const sub = path.join(dir, `pkg-${folder}`);
    await mkdir(sub);
    await Promise.all(
      Array.from({ length: 100 }, (_, file) =>
        writeFile(path.join(sub, `file-${file}.ts`), `export const value${file} = ${folder * 100 + file};\n`),
      ),
    );
  }
  execFileSync('git', ['add', '-A'], { cwd: dir, env: gitEnv });
  execFileSync('git', ['commit', '-q', '-m', 'generated'], { cwd: dir, env: gitEnv });
  // 500 changed: 400 modified tracked files and 100 new untracked ones.
  for (let n = 0; n < 400; n++) {
    await writeFile(
      path.join(dir, `pkg-${n % 200}`, `file-${Math.floor(n / 200)}.ts`),
      `export const changed = ${n};\n`,
    );
  }
  for (let n = 0; n < 100; n++) await writeFile(path.join(dir, `pkg-${n}`, 'untracked.ts'), `// new ${n}\n`);
}

async function generateFolder(dir) {
  await mkdir(dir);
  await Promise.all(
    Array.from({ length: 5_000 }, (_, n) => writeFile(path.join(dir, `entry-${n}.txt`), 'x'.repeat(n % 97))),
  );
}

const work = await mkdtemp(path.join(tmpdir(), 'workspaced-bench-'));
const repo = path.join(work, 'repo');
const folder = path.join(repo, 'big-folder');
console.log(`generating under ${work} ...`);
await generateRepository(repo);
await generateFolder(folder);
const daemon = await startDaemon(path.join(work, 'data'));
try {
  const { csrf, cookie } = await signIn(daemon.url);
  const project = await fetch(`${daemon.url}/api/v1/projects`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-workspaced-csrf': csrf },
    body: JSON.stringify({ name: 'bench', path: repo }),
  }).then((response) => response.json());
  const get = async (route) => {
    const response = await fetch(`${daemon.url}/api/v1/projects/${project.id}${route}`, {
      headers: { cookie },
    });
    if (response.status !== 200) throw new Error(`${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };

  const status = await get('/git/status');
  const changed = status.entries.filter((entry) => entry.kind !== 'ignored').length;
  console.log(
    `repository: ${execFileSync('git', ['ls-files'], { cwd: repo }).toString().split('\n').length - 1} tracked files, ${changed} changed or untracked (5,000-entry folder untracked inside it)`,
  );
  console.log(`load average before: ${loadAverage()}; rounds: ${rounds}\n`);

  const [direct, daemonStatus] = await measure(
    [
      {
        label: 'git status --porcelain=v2 (direct, baseline)',
        work: () => run('git', ['status', '--porcelain=v2'], { cwd: repo, maxBuffer: 64 << 20 }),
      },
      { label: 'GET /projects/{id}/git/status (daemon)', work: () => get('/git/status') },
    ],
    rounds,
  );
  console.log(row(direct));
  console.log(row(daemonStatus, direct), '(target <= 1.5x)');

  const listed = await get('/files?path=big-folder');
  console.log(`\nfolder listing: ${listed.entries.length} entries, truncated ${listed.truncated}`);
  const [inProcess, ls, daemonList] = await measure(
    [
      {
        label: 'readdir + lstat in-process (baseline)',
        work: async () => {
          const names = await readdir(folder);
          await Promise.all(names.map((name) => lstat(path.join(folder, name))));
        },
      },
      { label: 'ls -l (baseline)', work: () => run('ls', ['-l', folder], { maxBuffer: 64 << 20 }) },
      { label: 'GET /projects/{id}/files?path=big-folder', work: () => get('/files?path=big-folder') },
    ],
    rounds,
  );
  console.log(row(inProcess));
  console.log(row(ls));
  console.log(row(daemonList, ls), '(vs ls -l)');
  console.log(`\nload average after: ${loadAverage()}`);
} finally {
  daemon.child.kill('SIGTERM');
  if (!process.env.BENCH_KEEP) await rm(work, { recursive: true, force: true });
}
