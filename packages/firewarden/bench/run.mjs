/**
 * @module `npm run bench -w packages/firewarden`: throughput of authenticated `GET /api/v1/auth/me`
 * and `GET /api/v1/audit?limit=50` against bare node:http answering the same bytes in the same run
 * (target: at least 30 % of it), and login latency at the stated argon2id cost. Runs the built bin
 * on a temporary SQLite database. Baseline and firewarden alternate over BENCH_ROUNDS rounds (the
 * mean of each is reported) so a load change on the machine hits both alike. Options:
 * BENCH_SECONDS per measurement (default 5), BENCH_ROUNDS (3), BENCH_CONNECTIONS (10), BENCH_CPU_PROF
 * (a folder: firewarden runs under `node --cpu-prof` and writes its profile there on exit).
 */
import { fork, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashPassword, verifyPassword } from '@suite/web-auth';
import autocannon from 'autocannon';
import { argon2Parameters } from '../dist/index.js';
import { benchEnvironment, createBenchAdmin } from './admin.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const profileDir = process.env.BENCH_CPU_PROF;
/** USER_HZ, the unit of /proc/<pid>/stat's CPU times: 100 on every Linux build we run on. */
const clockTicksPerSecond = 100;
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const password = 'bench password 123';
const auditEntries = 2_000;

const dir = mkdtempSync(path.join(os.tmpdir(), 'firewarden-bench-'));
const config = path.join(dir, 'config.yaml');
writeFileSync(
  config,
  [
    'server: {bind: 127.0.0.1, port: 0}',
    `database: {driver: sqlite, sqlite_path: ${path.join(dir, 'fw.db')}}`,
    `logging: {file_path: ${path.join(dir, 'fw.log')}}`,
    'security: {login_rate_limit_per_minute: 1000}',
    '',
  ].join('\n'),
);
const environment = benchEnvironment;
createBenchAdmin(cli, config, password);

function startFirewarden() {
  const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
  const child = spawn(process.execPath, [...profile, cli, 'serve', '--config', config], {
    env: environment,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve({ child, url: match[1] });
    });
  });
}

function startBare() {
  const child = fork(fileURLToPath(new URL('./bare-server.mjs', import.meta.url)));
  return new Promise((resolve) => {
    child.once('message', (message) => resolve({ child, url: `http://127.0.0.1:${message.port}` }));
  });
}

const setBareAnswer = (bare, answer) =>
  new Promise((resolve) => {
    bare.child.once('message', resolve);
    bare.child.send(answer);
  });

async function login(url) {
  const started = performance.now();
  const response = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const elapsed = performance.now() - started;
  const body = await response.json();
  return { elapsed, cookie: response.headers.get('set-cookie').split(';')[0], csrf: body.data.csrf_token };
}

/** CPU time (user + system) a process has used, in ms: Linux /proc, undefined elsewhere. */
function cpuMs(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicksPerSecond;
  } catch {
    return undefined;
  }
}

async function measure(target, route, headers) {
  const cpuBefore = cpuMs(target.child.pid);
  const result = await autocannon({ url: `${target.url}${route}`, connections, duration: seconds, headers });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${target.url}${route}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const cpuAfter = cpuMs(target.child.pid);
  const cpuUsPerRequest =
    cpuBefore === undefined || cpuAfter === undefined
      ? undefined
      : ((cpuAfter - cpuBefore) * 1000) / result.requests.total;
  return { rps: result.requests.average, p99: result.latency.p99, cpuUsPerRequest };
}

const mean = (results) => ({
  rps: results.reduce((sum, result) => sum + result.rps, 0) / results.length,
  p99: Math.max(...results.map((result) => result.p99)),
  cpuUsPerRequest: results.some((result) => result.cpuUsPerRequest === undefined)
    ? undefined
    : results.reduce((sum, result) => sum + result.cpuUsPerRequest, 0) / results.length,
});

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

const firewarden = await startFirewarden();
const bare = await startBare();
try {
  const session = await login(firewarden.url);
  const headers = { cookie: session.cookie };
  // Audit entries to page through: settings changes are audited like any state change.
  for (let index = 0; index < auditEntries; index++) {
    await fetch(`${firewarden.url}/api/v1/settings`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'application/json', 'X-Firewarden-CSRF': session.csrf },
      body: JSON.stringify({ restore_points: { retain_manual: 10 + (index % 2) } }),
    });
  }

  const rows = [];
  // BENCH_ROUTES (comma-separated) narrows the run, e.g. to profile one route.
  const routes = process.env.BENCH_ROUTES?.split(',') ?? ['/api/v1/auth/me', '/api/v1/audit?limit=50'];
  for (const route of routes) {
    const sample = await fetch(`${firewarden.url}${route}`, { headers });
    const body = await sample.text();
    const answerHeaders = Object.fromEntries(sample.headers);
    delete answerHeaders['content-length'];
    delete answerHeaders.date;
    delete answerHeaders.connection;
    delete answerHeaders['keep-alive'];
    await setBareAnswer(bare, { status: sample.status, headers: answerHeaders, body });
    const baselines = [];
    const runs = [];
    for (let round = 0; round < rounds; round++) {
      baselines.push(await measure(bare, route, headers));
      runs.push(await measure(firewarden, route, headers));
    }
    rows.push({ route, bytes: Buffer.byteLength(body), baseline: mean(baselines), ours: mean(runs) });
  }

  const latencies = [];
  for (let index = 0; index < 30; index++) latencies.push((await login(firewarden.url)).elapsed);
  const hashes = [];
  for (let index = 0; index < 10; index++) {
    const started = performance.now();
    await verifyPassword(await hashPassword(password, argon2Parameters), password);
    hashes.push((performance.now() - started) / 2);
  }

  console.log(`firewarden benchmark ${new Date().toISOString()}`);
  console.log(
    `node ${process.version}, ${os.cpus().length} x ${os.cpus()[0]?.model}, load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `autocannon: ${connections} connections, ${rounds} alternating rounds of ${seconds} s per target (means); SQLite in ${os.tmpdir()}; ${auditEntries} audit entries`,
  );
  console.log('');
  console.log(
    'route                      bytes  bare node:http req/s  firewarden req/s  ratio  firewarden p99 ms',
  );
  for (const { route, bytes, baseline, ours } of rows) {
    const ratio = `${Math.round((ours.rps / baseline.rps) * 100)} %`;
    console.log(
      `${route.padEnd(26)} ${String(bytes).padStart(5)}  ${baseline.rps.toFixed(0).padStart(20)}  ${ours.rps.toFixed(0).padStart(16)}  ${ratio.padStart(5)}  ${String(ours.p99).padStart(17)}`,
    );
  }
  // CPU time per request of each server process: unlike req/s, it hardly depends on how the
  // machine's cores are shared with autocannon and everything else running.
  if (rows.every(({ baseline, ours }) => baseline.cpuUsPerRequest && ours.cpuUsPerRequest)) {
    console.log('');
    console.log('route                      bare CPU us/request  firewarden CPU us/request  bare/firewarden');
    for (const { route, baseline, ours } of rows) {
      const ratio = `${Math.round((baseline.cpuUsPerRequest / ours.cpuUsPerRequest) * 100)} %`;
      console.log(
        `${route.padEnd(26)} ${baseline.cpuUsPerRequest.toFixed(1).padStart(19)}  ${ours.cpuUsPerRequest.toFixed(1).padStart(25)}  ${ratio.padStart(15)}`,
      );
    }
  }
  console.log('');
  console.log(
    `argon2id m=${argon2Parameters.memoryCost} KiB t=${argon2Parameters.timeCost} p=${argon2Parameters.parallelism}: ` +
      `one hash ${percentile(hashes, 0.5).toFixed(1)} ms (median of 10, in process)`,
  );
  console.log(
    `POST /api/v1/auth/login over HTTP, 30 sequential: p50 ${percentile(latencies, 0.5).toFixed(1)} ms, ` +
      `p95 ${percentile(latencies, 0.95).toFixed(1)} ms`,
  );
} finally {
  firewarden.child.kill('SIGTERM');
  bare.child.disconnect();
  await new Promise((resolve) => firewarden.child.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
