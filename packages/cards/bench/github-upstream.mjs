/**
 * @module The GitHub side of the benchmark: a fake GitHub on loopback (the test fake, with many
 * cloned accounts so cold requests stay cold), and the cold-latency measurement of GitHub cards
 * against an upstream that answers in 100 ms.
 */
import { FIRST_CALENDAR_YEAR } from '../dist/github/fetchers/contributions.js';
import {
  contributionCalendarsQuery,
  USER_LANGUAGES_QUERY,
  USER_STATS_QUERY,
} from '../dist/github/queries.js';
import { fixtures } from '../test/fake-github/fixtures.mjs';
import { startFakeGitHub } from '../test/fake-github/server.mjs';

/** Accounts cloned from the busy fixture account (ten contribution years, many repositories). */
const coldAccounts = 180;
/** Further clones, one per card, for the upstream calls of a cold card. */
const costAccounts = 20;
const upstreamDelayMs = 100;
/** One request at a time: the latency of a card, not of a queue in the (single-threaded) fake. */
const coldConcurrency = 1;

export async function startBenchGitHub() {
  const template = fixtures.users.find((user) => user.login === 'grace');
  const clones = Array.from({ length: coldAccounts + costAccounts }, (_, index) => ({
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

/** One GraphQL call straight to the fake, the way the service sends it. */
async function graphql(github, query, variables) {
  const response = await fetch(`${github.url}/graphql`, {
    method: 'POST',
    headers: { authorization: 'bearer bench', 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}

/** The upstream calls each card needs when cold, made directly: the baseline of its latency. */
const directCalls = {
  '/stats': (github, login) => graphql(github, USER_STATS_QUERY, { login }),
  '/languages': (github, login) => graphql(github, USER_LANGUAGES_QUERY, { login, after: null }),
  '/streak': (github, login) => {
    const currentYear = new Date().getUTCFullYear();
    const years = Array.from(
      { length: currentYear - FIRST_CALENDAR_YEAR + 1 },
      (_, index) => FIRST_CALENDAR_YEAR + index,
    );
    return graphql(github, contributionCalendarsQuery(years), { login });
  },
};

/**
 * Cold latency of GitHub cards (each request names an account never fetched before) with the
 * fake answering in 100 ms, next to the same upstream calls made directly (so the difference
 * is the service's own work: parsing, caching, computing, drawing).
 */
export async function measureColdLatency(serverUrl, github, print) {
  github.switches.delayMs = upstreamDelayMs;
  const rows = [];
  const perEndpoint = Math.floor(coldAccounts / 3);
  try {
    for (const [offset, [path, direct]] of Object.entries(directCalls).entries()) {
      const first = offset * perEndpoint;
      const baseline = await timed(perEndpoint, (index) => direct(github, `cold${first + index}`));
      const ours = await timed(perEndpoint, async (index) => {
        const response = await fetch(`${serverUrl}${path}?username=cold${first + index}`);
        await response.text();
        if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
      });
      rows.push([path, baseline, ours]);
    }
  } finally {
    github.switches.delayMs = 0;
  }
  print('');
  print(
    `| cold card (upstream answers in ${upstreamDelayMs} ms, ${coldConcurrency} at a time) | same upstream calls made directly p50 / p95 (ms) | readme-cards p50 / p95 (ms) | own work at p95 (ms) |`,
  );
  print('| --- | --- | --- | --- |');
  for (const [path, baseline, ours] of rows) {
    print(
      `| ${path} | ${baseline.p50.toFixed(1)} / ${baseline.p95.toFixed(1)} | ${ours.p50.toFixed(1)} / ${ours.p95.toFixed(1)} | ${(ours.p95 - baseline.p95).toFixed(1)} |`,
    );
  }
}

/** Every GitHub card, each asked once for an account (or repository) never fetched before. */
const costPaths = [
  '/stats?username=',
  '/streak?username=',
  '/activity?username=',
  '/languages?username=',
  '/trophy?username=',
  '/views?username=',
  '/timeline?username=',
  '/snake?username=',
  '/neofetch?username=',
  '/hours?username=',
  '/repo?repo=',
  '/stars?repo=',
];

/**
 * Upstream calls of one cold card (what one request for a new account costs the token pool:
 * each GraphQL query or REST request is one call, one point of GitHub's limits for these
 * queries), next to the calls a repeat of the same request makes (the warm baseline: none).
 */
export async function measureUpstreamCalls(serverUrl, github, print) {
  const rows = [];
  for (const [index, path] of costPaths.entries()) {
    const login = `cold${coldAccounts + index}`;
    const url = `${serverUrl}${path}${path.includes('repo=') ? `${login}/galaxy` : login}`;
    const calls = async () => {
      const before = github.requests.length;
      const response = await fetch(url);
      await response.text();
      if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
      const made = github.requests.slice(before);
      return {
        graphql: made.filter((r) => r.kind === 'graphql').length,
        rest: made.filter((r) => r.kind === 'rest').length,
      };
    };
    rows.push([path.split('?')[0], await calls(), await calls()]);
  }
  print('');
  print('| cold card | upstream calls, cold (GraphQL + REST) | same request again (warm) |');
  print('| --- | --- | --- |');
  for (const [path, cold, warm] of rows) {
    print(
      `| ${path} | ${cold.graphql + cold.rest} (${cold.graphql} + ${cold.rest}) | ${warm.graphql + warm.rest} |`,
    );
  }
}
