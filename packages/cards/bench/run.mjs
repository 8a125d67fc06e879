/**
 * @module Benchmark of readme-cards (`npm run bench -w packages/cards`, after a build).
 *
 * 1. In process: each `inProcessScenarios` entry times our function against a baseline.
 * 2. Over loopback: each `httpScenarios` entry loads the running `readme-cards serve` with
 *    autocannon (50 connections, 10 s), then a bare node:http server answering the same bytes
 *    (the ceiling of Node on this machine). Prints requests/s, p99 latency and the server's
 *    peak RSS. Add scenarios to the lists; nothing else needs to change.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { makeBadge } from 'badge-maker';
import { createApp } from '../dist/app.js';
import { renderBadge } from '../dist/cards/badge.js';
import { measureColdLatency, startBenchGitHub } from './github-upstream.mjs';

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = 50;
const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Labels and messages that vary, so no renderer can answer from a cache of whole badges. */
const badgeInputs = Array.from({ length: 1000 }, (_, index) => ({
  label: `build ${index % 37}`,
  message: `passing ${index}`,
}));

/** In-process scenarios: `ours(i)` and `baseline(i)` each render one item. */
const inProcessScenarios = [
  {
    name: '/badge render (flat) vs badge-maker makeBadge',
    iterations: 50_000,
    ours: (i) => renderBadge({ ...badgeInputs[i % 1000], color: '#4b0', style: 'flat', animation: 'none' }),
    baseline: (i) => makeBadge({ ...badgeInputs[i % 1000], color: 'brightgreen', style: 'flat' }),
  },
  {
    name: '/badge render (for-the-badge) vs badge-maker makeBadge',
    iterations: 50_000,
    ours: (i) =>
      renderBadge({ ...badgeInputs[i % 1000], color: '#4b0', style: 'for-the-badge', animation: 'none' }),
    baseline: (i) => makeBadge({ ...badgeInputs[i % 1000], color: 'brightgreen', style: 'for-the-badge' }),
  },
];

/** HTTP scenarios: a path on the running server (query included). */
const httpScenarios = [
  { name: '/badge', path: '/badge?label=build&message=passing&color=success' },
  { name: '/typing', path: '/typing?lines=Hello%2C+world!;I+build+fast+SVG+cards' },
  {
    name: '/skills',
    path: '/skills?skills=typescript,react,nodejs,docker,postgres,redis,git,linux&showLabels=true',
  },
  // GitHub cards with warm data (the sample request fills the cache from the fake GitHub).
  { name: '/stats (warm)', path: '/stats?username=grace&showIcons=true' },
  { name: '/streak (warm)', path: '/streak?username=grace' },
  { name: '/languages (warm)', path: '/languages?username=grace' },
  // The drop-in layer: a github-readme-stats URL against the same card in our words.
  { name: '/stats radical (warm)', path: '/stats?username=grace&showIcons=true&theme=radical' },
  {
    name: '/api radical, github-readme-stats URL (warm)',
    path: '/api?username=grace&show_icons=true&theme=radical',
    compareTo: '/stats radical (warm)',
  },
];

/** `BENCH_ONLY=radical` runs only the HTTP scenarios whose name contains the text. */
const only = process.env.BENCH_ONLY;
const selectedScenarios = only
  ? httpScenarios.filter((scenario) => scenario.name.includes(only))
  : httpScenarios;

/**
 * Requests answered by `createApp` in this process, compared by CPU time per request (user +
 * system, so other processes on a busy machine weigh less than in wall-clock figures): ten
 * alternating rounds each, the fastest round of each path reported.
 */
async function compareInProcessRequests() {
  const app = createApp({ github: { apiUrl: github.url, tokens: ['bench-token'] } });
  const pairs = httpScenarios.filter(
    (scenario) => scenario.compareTo && selectedScenarios.includes(scenario),
  );
  if (pairs.length === 0) return;
  const cpuPerRequest = async (path, count) => {
    const start = process.cpuUsage();
    for (let i = 0; i < count; i++) await (await app.request(path)).text();
    const used = process.cpuUsage(start);
    return (used.user + used.system) / count;
  };
  print('');
  print(row(['in-process request (CPU µs, best of 10 rounds)', 'µs', 'compared with', 'its µs', 'ratio']));
  print(row(['---', '---', '---', '---', '---']));
  for (const scenario of pairs) {
    const reference = httpScenarios.find((candidate) => candidate.name === scenario.compareTo);
    await cpuPerRequest(scenario.path, 2_000); // warm-up: data fetched, parsed queries kept
    await cpuPerRequest(reference.path, 2_000);
    const best = { ours: Number.POSITIVE_INFINITY, reference: Number.POSITIVE_INFINITY };
    for (let round = 0; round < 10; round++) {
      const order = round % 2 === 0 ? ['ours', 'reference'] : ['reference', 'ours'];
      for (const side of order) {
        const path = side === 'ours' ? scenario.path : reference.path;
        best[side] = Math.min(best[side], await cpuPerRequest(path, 3_000));
      }
    }
    print(
      row([
        scenario.name,
        best.ours.toFixed(1),
        scenario.compareTo,
        best.reference.toFixed(1),
        `${Math.round((best.ours / best.reference) * 100)}%`,
      ]),
    );
  }
}

function timeLoop(fn, iterations) {
  for (let i = 0; i < Math.min(5_000, iterations); i++) fn(i); // warm-up (JIT, width tables)
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn(i);
  return Number(process.hrtime.bigint() - start) / 1e6 / iterations;
}

async function startProcess(args, env) {
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, url };
}

/** Peak resident set size of a process (Linux VmHWM), MB. */
function peakRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+) kB/.exec(status)[1]) / 1024;
}

/** A bare node:http server answering every request with the given status, headers and bytes. */
const bareServerSource = `
const http = require('node:http');
const { body, headers } = JSON.parse(process.env.BARE_RESPONSE);
const bytes = Buffer.from(body);
const server = http.createServer((req, res) => { res.writeHead(200, { ...headers, 'content-length': bytes.length }); res.end(bytes); });
server.listen(0, '127.0.0.1', () => console.log('listening on http://127.0.0.1:' + server.address().port));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

async function load(url) {
  // Warm-up (JIT, connection set-up) before the measured run.
  await autocannon({ url, connections, duration: Math.max(1, Math.round(seconds / 4)) });
  const result = await autocannon({ url, connections, duration: seconds });
  if (result.non2xx || result.errors)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { rps: result.requests.average, p99: result.latency.p99, p50: result.latency.p50 };
}

async function stop(child) {
  child.kill('SIGTERM');
  await once(child, 'exit');
}

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

const lines = [];
const print = (line) => {
  lines.push(line);
  console.log(line);
};

print(
  `readme-cards benchmark, ${new Date().toISOString()}, Node ${process.version}, ${seconds} s per HTTP run, ${connections} connections`,
);
print('');
print(row(['in-process scenario', 'ours (ms/op)', 'baseline (ms/op)', 'ours / baseline']));
print(row(['---', '---', '---', '---']));
for (const scenario of inProcessScenarios) {
  const baseline = timeLoop(scenario.baseline, scenario.iterations);
  const ours = timeLoop(scenario.ours, scenario.iterations);
  print(row([scenario.name, ours.toFixed(4), baseline.toFixed(4), `${(ours / baseline).toFixed(2)}x`]));
}

const directory = mkdtempSync(join(tmpdir(), 'readme-cards-bench-'));
const github = await startBenchGitHub();
await compareInProcessRequests();
const server = await startProcess([bin, 'serve', '--host', '127.0.0.1', '--port', '0'], {
  CARDS_STORE: join(directory, 'cards.db'),
  LOG_LEVEL: 'warn',
  GITHUB_API_URL: github.url,
  GITHUB_TOKENS: 'bench-token',
  // One loopback client stands for the many behind GitHub's image proxy: lift the per-client bound.
  CARDS_GITHUB_CALLS_PER_CLIENT: '100000000',
});
print('');
print(
  row([
    'HTTP scenario',
    'ours req/s',
    'ours p50 / p99 (ms)',
    'bare node:http req/s',
    'bare p99 (ms)',
    'ours / bare',
  ]),
);
print(row(['---', '---', '---', '---', '---', '---']));
try {
  for (const scenario of selectedScenarios) {
    const url = `${server.url}${scenario.path}`;
    const sample = await fetch(url);
    const body = await sample.text();
    const headers = Object.fromEntries(
      [...sample.headers].filter(
        ([name]) => !['content-length', 'date', 'connection', 'keep-alive'].includes(name),
      ),
    );
    const ours = await load(url);
    const bare = await startProcess(['-e', bareServerSource], {
      BARE_RESPONSE: JSON.stringify({ body, headers }),
    });
    let ceiling;
    try {
      ceiling = await load(`${bare.url}${scenario.path}`);
    } finally {
      await stop(bare.child);
    }
    print(
      row([
        `${scenario.name} (${body.length} B)`,
        Math.round(ours.rps).toLocaleString('en-US'),
        `${ours.p50} / ${ours.p99}`,
        Math.round(ceiling.rps).toLocaleString('en-US'),
        String(ceiling.p99),
        `${Math.round((ours.rps / ceiling.rps) * 100)}%`,
      ]),
    );
  }
  // Each compared pair is loaded again in A-B-B-A order, so a drift in machine load between
  // the runs cancels out of the ratio.
  const compared = selectedScenarios.filter((scenario) => scenario.compareTo);
  if (compared.length > 0) {
    print('');
    print(
      row([
        'scenario (A-B-B-A rounds)',
        'req/s',
        'p99 (ms)',
        'compared with',
        'its req/s',
        'its p99 (ms)',
        'ratio',
      ]),
    );
    print(row(['---', '---', '---', '---', '---', '---', '---']));
    for (const scenario of compared) {
      const reference = httpScenarios.find((candidate) => candidate.name === scenario.compareTo);
      const runs = { ours: [], reference: [] };
      for (const [side, target] of [
        ['ours', scenario],
        ['reference', reference],
        ['reference', reference],
        ['ours', scenario],
      ]) {
        runs[side].push(await load(`${server.url}${target.path}`));
      }
      const mean = (results, key) => results.reduce((sum, result) => sum + result[key], 0) / results.length;
      print(
        row([
          scenario.name,
          Math.round(mean(runs.ours, 'rps')).toLocaleString('en-US'),
          mean(runs.ours, 'p99').toFixed(1),
          scenario.compareTo,
          Math.round(mean(runs.reference, 'rps')).toLocaleString('en-US'),
          mean(runs.reference, 'p99').toFixed(1),
          `${Math.round((mean(runs.ours, 'rps') / mean(runs.reference, 'rps')) * 100)}%`,
        ]),
      );
    }
  }
  if (!only) await measureColdLatency(server.url, github, print);
  print('');
  print(`peak RSS of readme-cards serve during the runs: ${peakRssMb(server.child.pid).toFixed(1)} MB`);
} finally {
  await stop(server.child);
  await github.close();
  rmSync(directory, { recursive: true, force: true });
}
