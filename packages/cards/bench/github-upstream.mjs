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
const upstreamDelayMs = 100;
/** One request at a time: the latency of a card, not of a queue in the (single-threaded) fake. */
const coldConcurrency = 1;

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
