#!/usr/bin/env node
/**
 * @module Benchmark of issue 13's terminals: the same workload through the daemon (built bin,
 * REST + terminal socket, a real `ws` client) and over a raw node-pty in this process, in the
 * same run and alternating, so load on the shared machine hits both alike.
 * - throughput: `seq 1 2000000` typed into /bin/sh, until a marker after it arrives;
 * - echo latency: one typed line (`cat` running) until its tty echo arrives, p50/p95/p99;
 * - 50 terminals at once: each runs `seq 1 100000`, until the last marker arrives. They belong to
 *   5 admins, 10 each, one session each: a user may hold 20 live terminals and a session 16
 *   sockets (issue 23), so one user could not open them all.
 *
 * Run: npm run build -w packages/workspaced && flock /tmp/heavy.lock node packages/workspaced/bench/terminals.mjs
 * Env: BENCH_ROUNDS (throughput rounds, default 5), BENCH_SAMPLES (latency samples, default 200),
 * BENCH_TERMINALS (terminals at once, default 50).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pty from 'node-pty';
import WebSocket from 'ws';
import { loadAverage, signIn, startDaemon } from './bench-kit.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const samples = Number(process.env.BENCH_SAMPLES ?? 200);
const many = Number(process.env.BENCH_TERMINALS ?? 50);
/** Terminals per user in the many-terminals workload: under the per-user and per-session limits. */
const terminalsPerUser = 10;

async function api(base, session, method, route, body) {
  const response = await fetch(`${base}/api/v1${route}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(session ? { cookie: session.cookie, 'x-workspaced-csrf': session.csrf } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const cookie = response.headers.get('set-cookie')?.split(';', 1)[0];
  const json = await response.json();
  if (response.status >= 300) throw new Error(`${method} ${route}: ${JSON.stringify(json)}`);
  return { json, cookie };
}

/** A new admin (who reaches every project without membership), signed in: their own session. */
async function adminSession(base, owner, username) {
  const password = `${username} password 123`;
  await api(base, owner, 'POST', '/users', { username, password, role: 'admin' });
  const login = await api(base, undefined, 'POST', '/login', { username, password });
  return { cookie: login.cookie, csrf: login.json.csrf };
}

/** Output of one terminal, searched in a bounded tail so megabytes cost nothing extra. */
function watcher() {
  let tail = '';
  const waiting = [];
  return {
    push(text) {
      tail = (tail + text).slice(-8192);
      for (let i = waiting.length - 1; i >= 0; i--)
        if (tail.includes(waiting[i].marker)) waiting.splice(i, 1)[0].resolve(performance.now());
    },
    until(marker) {
      return new Promise((resolve) => {
        if (tail.includes(marker)) return resolve(performance.now());
        waiting.push({ marker, resolve });
      });
    },
    reset() {
      tail = '';
    },
  };
}

function rawTerminal() {
  const term = pty.spawn('/bin/sh', [], { name: 'xterm-256color', cols: 120, rows: 40, cwd: tmpdir() });
  const out = watcher();
  term.onData((data) => out.push(data));
  return { write: (text) => term.write(text), out, close: () => term.kill() };
}

async function daemonTerminal(daemon, session, projectId) {
  const { json } = await api(daemon.url, session, 'POST', '/terminals', {
    project_id: projectId,
    shell: '/bin/sh',
    cols: 120,
    rows: 40,
  });
  const ws = new WebSocket(`${daemon.url.replace('http', 'ws')}/api/v1/terminals/${json.id}/ws`, {
    headers: { cookie: session.cookie, origin: daemon.url },
  });
  const out = watcher();
  ws.on('message', (data, isBinary) => {
    if (isBinary) out.push(data.toString('latin1'));
  });
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  return { write: (text) => ws.send(JSON.stringify({ input: text })), out, close: () => ws.close() };
}

let markerCount = 0;
/** Types `command; echo M-$((n+1))` and waits for the computed marker (not the echoed line). */
async function timeCommand(term, command) {
  const n = ++markerCount * 10;
  const start = performance.now();
  term.write(`${command}; echo M-$((${n}+1))-E\r`);
  return (await term.out.until(`M-${n + 1}-E`)) - start;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const median = (values) => percentile(values, 50);
const fmt = (ms) => `${ms.toFixed(2)} ms`;

async function echoLatencies(term) {
  term.write('cat\r');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const times = [];
  for (let i = 0; i < samples; i++) {
    const marker = `k${i}q`;
    const start = performance.now();
    term.write(`${marker}\r`);
    times.push((await term.out.until(marker)) - start);
  }
  term.write('\x03');
  return times;
}

async function main() {
  const scratch = await mkdtemp(path.join(tmpdir(), 'workspaced-bench-terminals-'));
  // Sign-ins of the users behind the many terminals, all from 127.0.0.1, within a minute.
  const daemon = await startDaemon(path.join(scratch, 'data'), {
    args: ['--login-attempts-per-minute', '100'],
  });
  try {
    const session = await signIn(daemon.url);
    const project = (await api(daemon.url, session, 'POST', '/projects', { name: 'bench', path: scratch }))
      .json;
    console.log(`load average at start: ${loadAverage()}`);

    const raw = rawTerminal();
    const viaDaemon = await daemonTerminal(daemon, session, project.id);
    const seqBytes = 14_888_896; // `seq 1 2000000` prints this many bytes (with \r\n: + 2,000,000)
    const rawTimes = [];
    const daemonTimes = [];
    await timeCommand(raw, 'true');
    await timeCommand(viaDaemon, 'true');
    for (let round = 0; round < rounds; round++) {
      rawTimes.push(await timeCommand(raw, 'seq 1 2000000'));
      daemonTimes.push(await timeCommand(viaDaemon, 'seq 1 2000000'));
    }
    const mbps = (ms) => ((seqBytes + 2_000_000) / 1e6 / (ms / 1000)).toFixed(1);
    console.log(`\nthroughput, seq 1 2000000 (${rounds} rounds, alternating), median:`);
    console.log(`  raw node-pty        ${fmt(median(rawTimes))}  ${mbps(median(rawTimes))} MB/s`);
    console.log(`  daemon + WebSocket  ${fmt(median(daemonTimes))}  ${mbps(median(daemonTimes))} MB/s`);
    console.log(`  ratio daemon/raw    ${(median(daemonTimes) / median(rawTimes)).toFixed(2)}x`);

    const rawEcho = await echoLatencies(raw);
    const daemonEcho = await echoLatencies(viaDaemon);
    console.log(`\nkeystroke echo latency (${samples} samples each; cat running):`);
    for (const [name, times] of [
      ['raw node-pty      ', rawEcho],
      ['daemon + WebSocket', daemonEcho],
    ])
      console.log(
        `  ${name}  p50 ${fmt(percentile(times, 50))}  p95 ${fmt(percentile(times, 95))}  p99 ${fmt(percentile(times, 99))}`,
      );
    raw.close();
    viaDaemon.close();

    const users = [];
    const rawMany = Array.from({ length: many }, rawTerminal);
    const daemonMany = [];
    for (let i = 0; i < many; i++) {
      if (i % terminalsPerUser === 0) users.push(await adminSession(daemon.url, session, `bench-${i}`));
      daemonMany.push(await daemonTerminal(daemon, users.at(-1), project.id));
    }
    for (const term of [...rawMany, ...daemonMany]) await timeCommand(term, 'true');
    const rawStart = performance.now();
    await Promise.all(rawMany.map((term) => timeCommand(term, 'seq 1 100000')));
    const rawAll = performance.now() - rawStart;
    const daemonStart = performance.now();
    await Promise.all(daemonMany.map((term) => timeCommand(term, 'seq 1 100000')));
    const daemonAll = performance.now() - daemonStart;
    console.log(`\n${many} terminals at once, each seq 1 100000, until the last finishes:`);
    console.log(`  raw node-pty        ${fmt(rawAll)}`);
    console.log(`  daemon + WebSocket  ${fmt(daemonAll)}`);
    console.log(`  ratio daemon/raw    ${(daemonAll / rawAll).toFixed(2)}x`);
    for (const term of [...rawMany, ...daemonMany]) term.close();
    console.log(`\nload average at end: ${loadAverage()}`);
  } finally {
    daemon.child.kill('SIGTERM');
    await new Promise((resolve) => daemon.child.once('exit', resolve));
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
