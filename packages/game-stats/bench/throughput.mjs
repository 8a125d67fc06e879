/**
 * @module Benchmark: index build time and memory on a generated 100,000-player server, then
 * throughput of leaderboards (built-in and dotted), a player record and a player search at
 * 50 connections, against the naive read-every-file baseline measured in the same run.
 *
 * Run with: flock /tmp/heavy.lock npm run bench -w packages/game-stats
 * Environment: BENCH_PLAYERS (default 100000), BENCH_SECONDS (default 10), BENCH_DIR.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { benchFolder } from './bench-folder.mjs';
import { naiveLeaderboard } from './naive-baseline.mjs';

const players = Number(process.env.BENCH_PLAYERS ?? 100_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

function rssMb(pid) {
  return readFile(`/proc/${pid}/status`, 'utf8').then(
    (status) => Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024),
    () => Number.NaN,
  );
}

async function startServer() {
  const config = path.join(dir, 'bench.yml');
  await writeFile(config, 'server-dir: .\nrate-limit:\n  enabled: false\nindex:\n  rescan-seconds: 0\n');
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--host', '127.0.0.1', '--port', '0', '--config', config],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LOG_LEVEL: 'info' },
    },
  );
  let logs = '';
  child.stderr.on('data', (chunk) => {
    logs += chunk;
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited ${code}\n${logs}`)));
  });
  const startupMs = performance.now() - started;
  const health = await (await fetch(`${url}/api/health`)).json();
  return { child, url, startupMs, buildMs: health.index.build_ms, indexed: health.index.players };
}

async function load(url, title) {
  const result = await autocannon({ url, connections, duration: seconds });
  const row = {
    title,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
  console.log(
    `${title.padEnd(34)} ${String(row.rps).padStart(7)} req/s   p50 ${row.p50} ms   p99 ${row.p99} ms   errors ${row.errors}`,
  );
  return row;
}

async function naive(title, category, key, runs = 2) {
  const times = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await naiveLeaderboard(dir, category, key);
    times.push(performance.now() - started);
  }
  const average = times.reduce((sum, time) => sum + time, 0) / times.length;
  console.log(
    `${title.padEnd(34)} ${(1000 / average).toFixed(2).padStart(7)} req/s   ${Math.round(average)} ms per request`,
  );
  return 1000 / average;
}

const folder = await benchFolder({ players, dir: process.env.BENCH_DIR });
const dir = folder.dir;
const sample = folder.players[Math.floor(players / 2)];
console.log(
  `\nmachine: ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), Node ${process.version}`,
);
const server = await startServer();
console.log(
  `index build: ${server.buildMs} ms for ${server.indexed} players (process start to listening ${Math.round(server.startupMs)} ms)`,
);
console.log(`RSS after build: ${await rssMb(server.child.pid)} MB\n`);

const results = [];
try {
  // One warm-up request each so rankings are sorted before the timed runs.
  for (const route of ['/api/leaderboard/playtime', '/api/leaderboard/mined.stone'])
    await fetch(`${server.url}${route}`);
  results.push(
    await load(`${server.url}/api/leaderboard/playtime?limit=25`, 'leaderboard playtime (built-in)'),
  );
  results.push(
    await load(
      `${server.url}/api/leaderboard/mined.stone?limit=25&page=3`,
      'leaderboard mined.stone (dotted)',
    ),
  );
  results.push(await load(`${server.url}/api/player/${sample.uuid}`, 'player record (full)'));
  results.push(await load(`${server.url}/api/players?search=kazu&limit=25`, 'player search (substring)'));
  console.log(`RSS after load: ${await rssMb(server.child.pid)} MB\n`);
} finally {
  server.child.kill('SIGTERM');
}

console.log('naive baseline (read + parse + sort every file per request):');
const naivePlaytime = await naive('naive leaderboard playtime', 'minecraft:custom', 'minecraft:play_time');
const naiveDotted = await naive('naive leaderboard mined.stone', 'minecraft:mined', 'minecraft:stone');
console.log(`\nratio built-in leaderboard: ${Math.round(results[0].rps / naivePlaytime)}x`);
console.log(`ratio dotted leaderboard:   ${Math.round(results[1].rps / naiveDotted)}x`);
