/**
 * @module `npm run bench:blocklists -w packages/firewarden` (root: a network namespace, ipset):
 * a 100,000-entry blocklist (a mix of /32s and CIDRs) replaced through `PUT
 * /api/v1/firewall/blocklists/{name}` as a client sees it (send, parse, validate, merge, lockout
 * check, restore point, build, swap, verify, answer), rolled back (the PUT's restore point
 * restored through the API, and a safe apply left unconfirmed, from its deadline until the kernel
 * holds the old list), the peak memory (VmHWM) of the agent and the server, against `ipset
 * restore` of the same list run directly (the same build + swap input the agent writes, into a
 * set a rule names too), right after each PUT so both meet the same load. The built
 * bins run on a temporary SQLite installation; the agent manages a throwaway namespace. Options:
 * BENCH_ROUNDS (default 5), BENCH_ENTRIES (100000).
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { blocklistRestoreInput } from '../dist/agent/blocklist-sets.js';
import { createBenchAdmin } from './admin.mjs';

const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const size = Number(process.env.BENCH_ENTRIES ?? 100_000);
const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
const password = 'bench password 123';
const safeApplySeconds = 5;

/** A seeded PRNG (mulberry32): the same lists on every run. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * A feed as abuse lists look: 90 % single addresses, 8 % /24, 1.8 % /20, 0.2 % /16, spread over
 * unicast space, about 1 % of them repeated.
 */
function feed(seed) {
  const next = random(seed);
  const entries = [];
  while (entries.length < size) {
    const roll = next();
    const prefix = roll < 0.9 ? 32 : roll < 0.98 ? 24 : roll < 0.998 ? 20 : 16;
    const first = 1 + Math.floor(next() * 222);
    const rest = [0, 0, 0].map(() => Math.floor(next() * 256));
    const address = [first, ...rest].join('.');
    entries.push(prefix === 32 ? address : `${address}/${prefix}`);
    if (next() < 0.01 && entries.length < size) entries.push(entries[entries.length - 1]);
  }
  return entries;
}

const namespace = `fwbench-${randomBytes(3).toString('hex')}`;
const inNamespace = (argv, options = {}) =>
  execFileSync('ip', ['netns', 'exec', namespace, ...argv], options);
execFileSync('ip', ['netns', 'add', namespace]);
const dir = mkdtempSync(path.join(os.tmpdir(), 'firewarden-bench-lists-'));
const children = [];

function start(argv, ready) {
  const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const collect = (chunk) => {
      out += chunk;
      const match = ready.exec(out);
      if (match) resolve({ child, match });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code}: ${out}`)));
  });
}

/** Peak resident memory of a process (VmHWM), in MiB. */
function peakMiB(pid) {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmHWM:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

function ms(started) {
  return performance.now() - started;
}

const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: sorted[Math.floor(sorted.length / 2)],
    min: sorted[0],
    max: sorted[sorted.length - 1],
  };
};

try {
  const config = path.join(dir, 'config.yaml');
  writeFileSync(
    config,
    [
      'server: {bind: 127.0.0.1, port: 0}',
      `database: {driver: sqlite, sqlite_path: ${path.join(dir, 'fw.db')}}`,
      `logging: {file_path: ${path.join(dir, 'fw.log')}}`,
      `agent: {socket_path: ${path.join(dir, 'agent.sock')}}`,
      `firewall: {backend: iptables, safe_apply_timeout_seconds: ${safeApplySeconds}}`,
      '',
    ].join('\n'),
  );
  createBenchAdmin(cli, config, password);
  const agent = await start(
    [
      'ip',
      'netns',
      'exec',
      namespace,
      process.execPath,
      cli,
      'agent',
      '--config',
      config,
      '--state-dir',
      path.join(dir, 'state'),
    ],
    /firewarden agent listening on unix:/,
  );
  const server = await start(
    [process.execPath, cli, 'serve', '--config', config],
    /listening on (http:\/\/\S+)/,
  );
  const url = server.match[1];
  const login = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'admin', password }),
  });
  const headers = {
    cookie: login.headers.get('set-cookie').split(';')[0],
    'X-Firewarden-CSRF': (await login.json()).data.csrf_token,
    'content-type': 'application/json',
  };
  /** `body`: an object, or JSON text already made (as a client sending a file has it). */
  const call = async (method, route, body) => {
    const text = typeof body === 'string' ? body : body && JSON.stringify(body);
    const response = await fetch(`${url}${route}`, { method, headers, body: text });
    const answer = await response.json();
    if (!response.ok)
      throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(answer.error)}`);
    return answer.data;
  };
  const heldEntries = () => {
    const terse = inNamespace(['ipset', 'list', '-t', 'fw4-feed'], { encoding: 'utf8' });
    return Number(/Number of entries: (\d+)/.exec(terse)[1]);
  };

  const lists = [feed(1), feed(2)];
  const first = await call('PUT', '/api/v1/firewall/blocklists/feed', {
    entries: lists[0],
    safe_apply: false,
  });
  // Some rule names the list, as in production: the set is in use while it is swapped.
  await call('POST', '/api/v1/firewall/transactions', {
    actions: [{ op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'any', source: '@feed' } }],
    safe_apply: false,
  });
  const stored = [first.blocklist.entries];

  // The baseline's sets, named by a rule as ours are: what an admin would run by hand. Their names
  // are not firewarden's (`fw4-*` would be a list the agent reads into every restore point).
  for (const family of ['inet', 'inet6']) {
    const set = `admin${family === 'inet' ? 4 : 6}`;
    inNamespace(['ipset', 'create', set, 'hash:net', 'family', family, 'maxelem', '1000000']);
    inNamespace([
      family === 'inet' ? 'iptables' : 'ip6tables',
      '-A',
      'INPUT',
      '-m',
      'set',
      '--match-set',
      set,
      'src',
      '-j',
      'DROP',
    ]);
  }
  /** `ipset restore` of the list the kernel holds as `feed` now, built and swapped into `base`. */
  const restoreDirectly = () => {
    const held = inNamespace(['ipset', 'save', 'fw4-feed'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
      .split('\n')
      .filter((line) => line.startsWith('add '))
      .map((line) => line.split(' ')[2]);
    const base = { name: 'base', family: 'ipv4', comment: null, entries: { ipv4: held, ipv6: [] } };
    const { input: ours } = blocklistRestoreInput([base], new Set(['fw4-base', 'fw6-base']));
    const input = ours.replace(/\bfw(n?)([46])-base\b/g, 'admin$1$2');
    const started = performance.now();
    inNamespace(['ipset', 'restore'], { input });
    return ms(started);
  };
  // Filled once untimed, so each timed restore also destroys a full old content, as ours does.
  restoreDirectly();

  const put = [];
  const direct = [];
  const restore = [];
  const deadline = [];
  const current = 0;
  for (let round = 0; round < rounds; round++) {
    const next = 1 - current;
    // The client's own JSON.stringify of 1.6 MB is not the server's work: made before the clock.
    const body = JSON.stringify({ entries: lists[next], safe_apply: false });
    let started = performance.now();
    const answer = await call('PUT', '/api/v1/firewall/blocklists/feed', body);
    put.push(ms(started));
    stored[next] = answer.blocklist.entries;
    direct.push(restoreDirectly());
    started = performance.now();
    await call('POST', `/api/v1/firewall/snapshots/${answer.transaction.restore_point_id}/restore`);
    restore.push(ms(started));
    if (heldEntries() !== stored[current]) throw new Error('the restore did not bring the list back');
    // An unconfirmed safe apply: from its deadline until the kernel holds the old list again.
    const pending = await call('PUT', '/api/v1/firewall/blocklists/feed', { entries: lists[next] });
    const at = Date.parse(pending.transaction.deadline);
    while (Date.now() < at) await new Promise((resolve) => setTimeout(resolve, 20));
    while (heldEntries() !== stored[current]) await new Promise((resolve) => setTimeout(resolve, 5));
    deadline.push(Date.now() - at);
    // The next round's PUT starts once the rollback is over for the API too, not while the agent
    // still settles it: each timed request meets an idle agent, as a client's single change does.
    const route = `/api/v1/firewall/transactions/${pending.transaction.id}`;
    while ((await call('GET', route)).transaction.state !== 'rolled_back')
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const agentPeak = peakMiB(agent.child.pid);
  const serverPeak = peakMiB(server.child.pid);
  const row = (label, values) => {
    const { median, min, max } = stats(values);
    return `${label.padEnd(52)} ${median.toFixed(0).padStart(7)} ${min.toFixed(0).padStart(7)} ${max.toFixed(0).padStart(7)}`;
  };
  const directMedian = stats(direct).median;
  console.log(
    `blocklist of ${size} entries sent, ${stored.join(' / ')} held after merging; ${rounds} rounds; load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `${'measurement (ms)'.padEnd(52)} ${'median'.padStart(7)} ${'min'.padStart(7)} ${'max'.padStart(7)}`,
  );
  console.log(row('PUT, safe_apply false (client-seen)', put));
  console.log(row("rollback: restore the PUT's restore point (client-seen)", restore));
  console.log(row('rollback: unconfirmed safe apply, deadline -> old list', deadline));
  console.log(row('ipset restore of the same list, run directly', direct));
  console.log(
    `PUT / ipset restore: ${(stats(put).median / directMedian).toFixed(2)}x; restore / ipset restore: ${(stats(restore).median / directMedian).toFixed(2)}x`,
  );
  // Each PUT against the restore run right after it: less swayed by the load's swings than medians.
  const perRound = stats(put.map((value, round) => value / direct[round]));
  console.log(
    `PUT / ipset restore per round: median ${perRound.median.toFixed(2)}x (${perRound.min.toFixed(2)}-${perRound.max.toFixed(2)}x)`,
  );
  console.log(`peak RSS (VmHWM): agent ${agentPeak.toFixed(0)} MiB, server ${serverPeak.toFixed(0)} MiB`);
} finally {
  for (const child of children) child.kill('SIGTERM');
  await new Promise((resolve) => setTimeout(resolve, 500));
  execFileSync('ip', ['netns', 'delete', namespace]);
  rmSync(dir, { recursive: true, force: true });
}
