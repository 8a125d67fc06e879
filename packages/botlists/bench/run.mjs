#!/usr/bin/env node
/**
 * @module Benchmark: verified vote-webhook deliveries per second over loopback (autocannon, 50 connections),
 * ours (vote ledger off and on) vs @top-gg/sdk's Express listener vs a bare node:http parser; packed size; import time.
 * Run it alone: `flock /tmp/bench.lock npm run bench -w packages/botlists` (needs `npm run build` first).
 */
import { execFileSync, fork } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { DeliveryStream } from './deliveries.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const SECRET = 'bench-secret-0123456789';
const HMAC_KEY = 'bench-hmac-key';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP_S = 2;
const CONNECTIONS = 50;
/**
 * Deliveries a second no server of ours reaches here (the bare parser peaked at 87,000, botlists at
 * 60,000): each of our servers gets (warm-up + duration) x this many bodies of its own, so none
 * receives a body twice; a faster machine overruns its stream and the run fails saying so.
 */
const MAX_RATE = Number(process.env.BENCH_MAX_RATE ?? 75_000);
const ownSigned = () =>
  new DeliveryStream(Math.ceil((WARMUP_S + DURATION_S) * MAX_RATE), { hmacKey: HMAC_KEY });
/** The SDK and the bare parser refuse no replay: they share one stream that may wrap. */
const unsigned = new DeliveryStream(100_000, { repeatable: true });

const TARGETS = {
  botlists: { path: '/botlists/top.gg', headers: { authorization: SECRET }, deliveries: ownSigned() },
  'botlists-ledger': {
    path: '/botlists/top.gg',
    headers: { authorization: SECRET },
    deliveries: ownSigned(),
  },
  'topgg-sdk': { path: '/dblwebhook', headers: { authorization: SECRET }, deliveries: unsigned },
  bare: { path: '/', headers: {}, deliveries: unsigned },
};

function startServer(kind) {
  const child = fork(join(here, 'server.mjs'), [kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', ({ port }) => resolve({ child, port }));
  });
}

const ask = (child) =>
  new Promise((resolve) => {
    child.once('message', (m) => resolve(m.votes));
    child.send('count');
  });

/** Servers stay up for the whole run; rounds interleave them so a noisy neighbour hurts all three alike. */
async function measure(server, kind, seconds) {
  const target = TARGETS[kind];
  const before = await ask(server.child);
  const result = await autocannon({
    url: `http://127.0.0.1:${server.port}${target.path}`,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...target.headers },
    // A new body per request for every target (signed for ours), from the target's stream.
    requests: [
      {
        setupRequest: (request) => {
          const delivery = target.deliveries.next();
          return { ...request, body: delivery.body, headers: { ...request.headers, ...delivery.headers } };
        },
      },
    ],
    connections: CONNECTIONS,
    duration: seconds,
  });
  const delivered = (await ask(server.child)) - before;
  return {
    perSecond: delivered / seconds,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    p99: result.latency.p99,
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function importTime(specifier, runs = 7) {
  const script = `const t=performance.now();await import(${JSON.stringify(specifier)});console.log(performance.now()-t)`;
  const times = [];
  for (let i = 0; i < runs; i++) {
    times.push(
      Number(
        execFileSync(process.execPath, ['--input-type=module', '-e', script], {
          cwd: root,
          encoding: 'utf8',
        }),
      ),
    );
  }
  return median(times);
}

const KINDS = ['bare', 'topgg-sdk', 'botlists', 'botlists-ledger'];
const ROUNDS = 3;
const servers = {};
for (const kind of KINDS) servers[kind] = await startServer(kind);
for (const kind of KINDS) await measure(servers[kind], kind, WARMUP_S); // warm-up (JIT), not counted
const rounds = Object.fromEntries(KINDS.map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of KINDS) rounds[kind].push(await measure(servers[kind], kind, DURATION_S / ROUNDS));
}
for (const kind of KINDS) servers[kind].child.kill('SIGTERM');
const overrun = KINDS.filter((kind) => TARGETS[kind].deliveries.overrun);
if (overrun.length > 0) {
  console.error(
    `void run: ${overrun.join(', ')} received more than ${MAX_RATE}/s of bodies and got copies they had counted; raise BENCH_MAX_RATE`,
  );
  process.exit(1);
}
const by = {};
console.log(
  `${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${(DURATION_S / ROUNDS).toFixed(1)} s per server (median shown)`,
);
for (const kind of KINDS) {
  const runs = rounds[kind];
  by[kind] = Math.round(median(runs.map((r) => r.perSecond)));
  const bad = runs.reduce((n, r) => n + r.non2xx + r.errors, 0);
  console.log(
    `${kind.padEnd(15)} ${String(by[kind]).padStart(7)} verified deliveries/s  p99 ${median(runs.map((r) => r.p99))} ms  non-2xx+errors ${bad}  rounds ${runs.map((r) => Math.round(r.perSecond)).join(' / ')}`,
  );
}
console.log(
  `\nbotlists / @top-gg/sdk: ${(by.botlists / by['topgg-sdk']).toFixed(2)}x   botlists / bare node:http: ${((by.botlists / by.bare) * 100).toFixed(0)} %   ledger on / off: ${((by['botlists-ledger'] / by.botlists) * 100).toFixed(0)} %`,
);

const [pack] = JSON.parse(
  execFileSync('npm', ['pack', '--dry-run', '--json'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }),
);
console.log(
  `\npacked size ${(pack.size / 1024).toFixed(1)} kB, unpacked ${(pack.unpackedSize / 1024).toFixed(1)} kB, ${pack.entryCount} files`,
);
const ours = importTime(join(root, 'dist/index.js'));
const sdk = importTime('@top-gg/sdk');
console.log(
  `import time (median of 7 cold processes): botlists ${ours.toFixed(1)} ms, @top-gg/sdk ${sdk.toFixed(1)} ms`,
);
