/**
 * @module Live-server benchmark: the built bin serves a generated server folder (about 80
 * statistics per player, 2-3 KB per file) while a writer imitates the running game (every 5 s
 * it rewrites the files of 200 random players with higher values and logs one player in and
 * out through a fake RCON server), and autocannon loads each route, interleaved with bare
 * node:http answering the same bytes. Reports throughput, latency, the longest event-loop
 * delay inside the server, peak RSS from start to end, the time until a change shows in the
 * leaderboard, and the index build time from a cold page cache.
 *
 * Run with: flock /tmp/heavy.lock npm run bench -w packages/game-stats -- live (build first)
 * Environment: BENCH_PLAYERS (default 100000), BENCH_SECONDS (measured seconds per route and
 * server, default 8, after a 2 s warm-up), BENCH_DIR, BENCH_JSON (write the figures there),
 * BENCH_COLD=0 (keep the page cache: a warm build), BENCH_SERVER_FLAGS (extra node flags
 * of the measured server, for diagnosis).
 */
import { execFileSync, fork, spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchFolder } from './bench-folder.mjs';
import { rconPassword } from './game-process.mjs';

const playerCount = Number(process.env.BENCH_PLAYERS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const warmUpSeconds = 2;
const connections = 50;
const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(here, '..', 'dist', 'cli.js');

const loadAverage = os.loadavg().map((load) => load.toFixed(2));
console.log(`load average at start: ${loadAverage.join(' ')}`);
console.log(
  `machine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`,
);
const folder = await benchFolder({ players: playerCount, shape: 'casual', dir: process.env.BENCH_DIR });
const players = folder.players;

/** Sends a message to a child process and waits for its answer of type `answer`. */
function ask(child, message, answer) {
  return new Promise((resolve) => {
    const listen = (reply) => {
      if (reply?.type !== answer) return;
      child.off('message', listen);
      resolve(reply);
    };
    child.on('message', listen);
    child.send(message);
  });
}

const game = fork(path.join(here, 'game-process.mjs'), [], { stdio: 'inherit' });
const rcon = await ask(game, { type: 'start', dir: folder.dir, players }, 'rcon');

/** Empties the page cache so the build reads from disk (needs root); says whether it worked. */
async function dropPageCache() {
  try {
    execFileSync('sync');
    await writeFile('/proc/sys/vm/drop_caches', '3');
    return true;
  } catch {
    return false;
  }
}

/** The index snapshot of the benchmark's server (next to its folder, removed before the first start). */
const snapshotFile = `${folder.dir}.snapshot`;

function startServer() {
  const config = path.join(folder.dir, 'live-bench.yml');
  return writeFile(
    config,
    [
      'server-dir: .',
      'rate-limit: {enabled: false}',
      'compression: {enabled: false}',
      `rcon: {enabled: true, host: 127.0.0.1, port: ${rcon.port}, password: ${rconPassword}, interval-seconds: 1}`,
      `index: {snapshot-file: ${JSON.stringify(snapshotFile)}}`,
      '',
    ].join('\n'),
  ).then(() => {
    const started = performance.now();
    const child = spawn(
      process.execPath,
      [
        // Diagnosis only, e.g. BENCH_SERVER_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof'.
        ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean),
        '--import',
        path.join(here, 'loop-delay-probe.mjs'),
        cli,
        'serve',
        '--host',
        '127.0.0.1',
        '--port',
        '0',
        '--config',
        config,
      ],
      { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env: { ...process.env, LOG_LEVEL: 'warn' } },
    );
    let logs = '';
    child.stderr.on('data', (chunk) => {
      logs += chunk;
    });
    return new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk) => {
        // Diagnosis only: BENCH_SERVER_STDOUT=<file> keeps what the server prints (--trace-gc).
        if (process.env.BENCH_SERVER_STDOUT) appendFileSync(process.env.BENCH_SERVER_STDOUT, chunk);
        out = (out + chunk).slice(-4096);
        const match = /listening on (\S+)/.exec(out);
        if (match) resolve({ child, url: match[1], startupMs: performance.now() - started });
      });
      child.once('exit', (code) => reject(new Error(`server exited ${code}\n${logs}`)));
      child.exited = new Promise((done) => child.once('exit', done));
    });
  });
}

/** Longest event-loop delay since the last reset, and peak RSS, from inside the server. */
function probe(child, reset = true) {
  return ask(child, { type: 'loop-delay', reset }, 'loop-delay');
}

/** Diagnosis: with BENCH_STALL_LOG, the probe writes what is being loaded into the stall log. */
function mark(child, text) {
  if (process.env.BENCH_STALL_LOG) child.send({ type: 'mark', text });
}

function startRawServer() {
  const child = fork(path.join(here, 'raw-http-server.mjs'), [], { stdio: 'inherit' });
  return new Promise((resolve) => {
    child.once('message', (message) => resolve({ child, url: `http://127.0.0.1:${message.port}` }));
  });
}

function answerWith(raw, body, headers) {
  return ask(raw.child, { type: 'answer', body, headers }, 'ready');
}

async function load(url) {
  await autocannon({ url, connections, duration: warmUpSeconds });
  const result = await autocannon({ url, connections, duration: seconds });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    errors: result.errors + result.non2xx,
  };
}

/** Headers of an answer as bare node:http should send them (framing headers are its own). */
function replayableHeaders(response) {
  const skip = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);
  return Object.fromEntries([...response.headers].filter(([name]) => !skip.has(name)));
}

const sample = players[Math.floor(players.length / 2)];
const routes = [
  ['leaderboard playtime (built-in)', '/api/leaderboard/playtime?limit=25'],
  ['leaderboard mined.stone (dotted, p3)', '/api/leaderboard/mined.stone?limit=25&page=3'],
  ['leaderboard deaths online_only', '/api/leaderboard/deaths?online_only=true&limit=25'],
  ['player record (full)', `/api/player/${sample.uuid}`],
  ['player summary (by name)', `/api/player/${sample.name}/summary`],
  ['players page', '/api/players?limit=25&page=40'],
  ['players search', '/api/players?search=kazu&limit=25'],
  ['health', '/api/health'],
];

const cold = process.env.BENCH_COLD === '0' ? false : await dropPageCache();
console.log(
  cold
    ? 'page cache dropped before start (cold build)'
    : 'page cache not dropped (BENCH_COLD=0, or not root): warm build',
);
// First start without a snapshot (every file read), stopped cleanly (which saves the snapshot);
// then the measured start: a restart from a cold page cache.
await rm(snapshotFile, { force: true });
const first = await startServer();
const firstHealth = await (await fetch(`${first.url}/api/health`)).json();
const firstAtListening = await probe(first.child);
first.child.kill('SIGTERM');
await first.child.exited;
console.log(
  `first start (no snapshot, ${cold ? 'cold' : 'warm'} page cache): index build ${firstHealth.index.build_ms} ms, process start to listening ${Math.round(first.startupMs)} ms, peak RSS ${firstAtListening.peakRssMb} MB`,
);
// Bare node:http starts before the measured server: its start-up (a Node process compiling its
// modules) competed for the 2 cores with the first route's load when it was started after.
const raw = await startRawServer();
const restartCold = cold && (await dropPageCache());
const server = await startServer();
const health = await (await fetch(`${server.url}/api/health`)).json();
const atListening = await probe(server.child);
console.log(
  `restart (snapshot, ${restartCold ? 'cold' : 'warm'} page cache): index build ${health.index.build_ms} ms, process start to listening ${Math.round(server.startupMs)} ms, RSS ${atListening.rssMb} MB (peak so far ${atListening.peakRssMb} MB)`,
);

game.send({ type: 'write', url: server.url });
const rows = [];
let worstDelayMs = 0;
let worstIdleDelayMs = 0;
let writer;
try {
  console.log(
    `\n${'route'.padEnd(38)} ${'req/s'.padStart(7)} ${'raw req/s'.padStart(9)} ${'ratio'.padStart(5)}  p50 p99 max (ms)  loop max  errors`,
  );
  for (const [title, route] of routes) {
    const response = await fetch(`${server.url}${route}`);
    const body = await response.text();
    if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${body}`);
    await answerWith(raw, body, replayableHeaders(response));
    // Since the previous route's bare node:http load: the bin idle but for the writer's ticks,
    // starved of CPU by the other server and autocannon. Reported apart (not a bin-loaded window).
    const between = await probe(server.child);
    if (rows.length > 0) worstIdleDelayMs = Math.max(worstIdleDelayMs, between.maxMs);
    mark(server.child, `bin loaded: ${title}`);
    const ours = await load(`${server.url}${route}`);
    const delay = await probe(server.child);
    mark(server.child, `raw node:http loaded (bin idle but for the writer): ${title}`);
    const ceiling = await load(`${raw.url}${route}`);
    worstDelayMs = Math.max(worstDelayMs, delay.maxMs);
    const row = {
      title,
      route,
      bytes: Buffer.byteLength(body),
      ...ours,
      rawRps: ceiling.rps,
      ratio: ours.rps / ceiling.rps,
      loopMaxMs: delay.maxMs,
    };
    rows.push(row);
    console.log(
      `${title.padEnd(38)} ${String(row.rps).padStart(7)} ${String(row.rawRps).padStart(9)} ${row.ratio.toFixed(2).padStart(5)}  ${String(row.p50).padStart(3)} ${String(row.p99).padStart(3)} ${String(row.max).padStart(3)}       ${String(delay.maxMs).padStart(6)}  ${row.errors}`,
    );
  }
} finally {
  writer = await ask(game, { type: 'stop' }, 'stopped');
}
const end = await probe(server.child);
const heap = (await (await fetch(`${server.url}/api/health`)).json()).memory;
worstDelayMs = Math.max(worstDelayMs, end.maxMs);
server.child.kill('SIGTERM');
raw.child.kill('SIGTERM');
await server.child.exited;

const visible = [...writer.visibleAfterMs].sort((a, b) => a - b);
const summary = {
  date: new Date().toISOString(),
  players: playerCount,
  loadAverage,
  coldCache: cold,
  firstBuildMs: firstHealth.index.build_ms,
  firstStartupMs: Math.round(first.startupMs),
  firstPeakRssMb: firstAtListening.peakRssMb,
  restartCold,
  buildMs: health.index.build_ms,
  startupMs: Math.round(server.startupMs),
  peakRssMb: end.peakRssMb,
  endRssMb: end.rssMb,
  endHeapUsedMb: heap.heap_used_mb,
  worstLoopDelayMs: worstDelayMs,
  worstLoopDelayWhileRawLoadedMs: worstIdleDelayMs,
  writerTicks: writer.ticks,
  writerTicksSkipped: writer.skipped,
  visibleMedianMs: visible[Math.floor(visible.length / 2)],
  visibleMaxMs: visible.at(-1),
  routes: rows,
};
console.log(
  `\nwriter: ${writer.ticks} ticks of 200 files + one login/logout (${writer.skipped} skipped: previous tick still busy); change visible in the leaderboard after median ${summary.visibleMedianMs} ms, max ${summary.visibleMaxMs} ms`,
);
console.log(
  `longest event-loop delay in the server while listening: ${worstDelayMs} ms (while the bin was loaded, and the last bare node:http load); while bare node:http was loaded before the next route (bin idle but for the writer, not counted above): ${worstIdleDelayMs} ms`,
);
console.log(
  `peak RSS from start to end: ${end.peakRssMb} MB (at end ${end.rssMb} MB; V8 heap used ${heap.heap_used_mb} MB of ${heap.heap_committed_mb} MB committed)`,
);
console.log(
  `load average at end: ${os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ')}`,
);
const verdict = (met) => (met ? 'met' : 'NOT MET');
const minRatio = Math.min(...rows.map((row) => row.ratio));
const maxP99 = Math.max(...rows.map((row) => row.p99));
summary.targets = [
  [`every route >= 50 % of raw node:http: lowest ${minRatio.toFixed(2)}`, minRatio >= 0.5],
  [`p99 < 20 ms on every route: highest ${maxP99} ms`, maxP99 < 20],
  [`no event-loop delay > 50 ms while listening: longest ${worstDelayMs} ms`, worstDelayMs <= 50],
  [
    `peak RSS < 500 MB from start to end: ${end.peakRssMb} MB (first start without snapshot: ${firstAtListening.peakRssMb} MB at listening)`,
    end.peakRssMb < 500,
  ],
  [`a change visible within 1 s: worst ${summary.visibleMaxMs} ms`, summary.visibleMaxMs <= 1_000],
  [
    `start to listening from a ${restartCold ? 'cold' : 'WARM'} page cache < 10 s: ${summary.startupMs} ms with the snapshot (first start without it: ${summary.firstStartupMs} ms)`,
    restartCold && summary.startupMs < 10_000,
  ],
].map(([text, met]) => ({ target: text, met }));
console.log(`\ntargets (${playerCount} players):`);
for (const { target, met } of summary.targets) console.log(`  ${verdict(met).padEnd(7)}  ${target}`);
if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify(summary, null, 2));
