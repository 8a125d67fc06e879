#!/usr/bin/env node
/**
 * @module Benchmark: verified vote-webhook deliveries per second over loopback (autocannon, 50 connections),
 * ours (vote ledger off and on) vs @top-gg/sdk's Express listener vs a bare node:http parser; packed size; import time.
 * Run it alone: `flock /tmp/bench.lock npm run bench -w packages/botlists` (needs `npm run build` first).
 */
import { execFileSync, fork } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const SECRET = 'bench-secret-0123456789';
const HMAC_KEY = 'bench-hmac-key';
const DURATION_S = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = 50;
/**
 * Every delivery is a new vote (a new voter id): the same signed body twice is refused as a
 * replay. Bodies and signatures are made before the run, so the load generator only picks them.
 */
const POOL_SIZE = 600_000;
const pool = Array.from({ length: POOL_SIZE }, (_, index) => {
  const body = JSON.stringify({
    bot: '111111111111111111',
    user: String(222222222222222222n + BigInt(index)),
    type: 'upvote',
    isWeekend: false,
    query: '?ref=bench',
  });
  return { body, signature: `sha256=${createHmac('sha256', HMAC_KEY).update(body).digest('hex')}` };
});
let deliveries = 0;
const nextDelivery = () => pool[deliveries++ % POOL_SIZE];
const hmacHeader = (delivery) => ({ 'x-signature-256': delivery.signature });

const TARGETS = {
  botlists: { path: '/botlists/top.gg', headers: { authorization: SECRET }, sign: hmacHeader },
  'botlists-ledger': { path: '/botlists/top.gg', headers: { authorization: SECRET }, sign: hmacHeader },
  'topgg-sdk': { path: '/dblwebhook', headers: { authorization: SECRET } },
  bare: { path: '/', headers: {} },
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
    // A new body per request for every target (signed for ours), taken from the pool.
    requests: [
      {
        setupRequest: (request) => {
          const delivery = nextDelivery();
          return {
            ...request,
            body: delivery.body,
            headers: { ...request.headers, ...target.sign?.(delivery) },
          };
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
for (const kind of KINDS) await measure(servers[kind], kind, 2); // warm-up (JIT), not counted
const rounds = Object.fromEntries(KINDS.map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const kind of KINDS) rounds[kind].push(await measure(servers[kind], kind, DURATION_S / ROUNDS));
}
for (const kind of KINDS) servers[kind].child.kill('SIGTERM');
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
