/**
 * @module The GitHub side of the benchmark: a fake GitHub on loopback (the test fake, with many
 * cloned accounts so cold requests stay cold), and the cold-latency measurement of GitHub cards
 * against an upstream that answers in 100 ms.
 */
import { fixtures } from '../test/fake-github/fixtures.mjs';
import { startFakeGitHub } from '../test/fake-github/server.mjs';

/** Accounts cloned from the busy fixture account (ten contribution years, many repositories). */
const coldAccounts = 300;
const upstreamDelayMs = 100;
const coldConcurrency = 10;

export async function startBenchGitHub() {
  const template = fixtures.users.find((user) => user.login === 'grace');
  const clones = Array.from({ length: coldAccounts }, (_, index) => ({
    ...template,
    id: `U_cold${index}`,
    login: `cold${index}`,
  }));
  return startFakeGitHub({ users: [...fixtures.users, ...clones] });
}

function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))];
}

/** Runs `count` timed calls of `call(i)`, `coldConcurrency` at a time; returns p50/p95 in ms. */
async function timed(count, call) {
  const durations = [];
  let next = 0;
  async function worker() {
    while (next < count) {
      const index = next++;
      const started = performance.now();
      await call(index);
      durations.push(performance.now() - started);
    }
  }
  await Promise.all(Array.from({ length: coldConcurrency }, worker));
  durations.sort((a, b) => a - b);
  return { p50: percentile(durations, 0.5), p95: percentile(durations, 0.95) };
}

/**
 * Cold latency of GitHub cards (each request names an account never fetched before) with the
 * fake answering in 100 ms, next to one bare upstream GraphQL call measured the same way.
 */
export async function measureColdLatency(serverUrl, github, print) {
  github.switches.delayMs = upstreamDelayMs;
  const rows = [];
  try {
    const upstream = await timed(60, () =>
      fetch(`${github.url}/graphql`, {
        method: 'POST',
        headers: { authorization: 'bearer bench', 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'query { user(login: "grace") { login } }' }),
      }).then((response) => response.text()),
    );
    rows.push(['one upstream GraphQL call (baseline)', upstream]);
    const perEndpoint = Math.floor(coldAccounts / 3);
    const endpoints = ['/stats', '/languages', '/streak'];
    for (const [offset, path] of endpoints.entries()) {
      const result = await timed(perEndpoint, async (index) => {
        const response = await fetch(`${serverUrl}${path}?username=cold${offset * perEndpoint + index}`);
        await response.text();
        if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
      });
      rows.push([`${path} cold`, result]);
    }
  } finally {
    github.switches.delayMs = 0;
  }
  print('');
  print(
    `| cold request (upstream answers in ${upstreamDelayMs} ms, ${coldConcurrency} at a time) | p50 (ms) | p95 (ms) |`,
  );
  print('| --- | --- | --- |');
  for (const [name, { p50, p95 }] of rows) print(`| ${name} | ${p50.toFixed(1)} | ${p95.toFixed(1)} |`);
}
