/**
 * @module The GitHub data layer against the fake GitHub: every fetcher's numbers (worked out by
 * hand in the fixtures), typed errors, token rotation, single-flight, stale data and ETags.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { storeInCardCache } from '../../src/github/cache-store.js';
import { createGitHubData, type GitHubData } from '../../src/github/data.js';
import { GitHubError } from '../../src/github/errors.js';
import { contributionDays } from '../../src/github/fetchers/contributions.js';
import { createMemoryCache } from '../../src/store/card-cache.js';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';

let fake: FakeGitHub;
let clock = FIXED_NOW;

beforeAll(async () => {
  fake = await startFakeGitHub(fixtures, { now: () => clock, requireToken: true });
});
afterAll(() => fake.close());
afterEach(() => {
  fake.reset();
  clock = FIXED_NOW;
});

function data(tokens: string[] = ['t1'], budgetMs = 2_500): GitHubData {
  return createGitHubData({
    apiUrl: fake.url,
    tokens,
    budgetMs,
    store: storeInCardCache(createMemoryCache()),
    now: () => clock,
  });
}

async function failure(promise: Promise<unknown>): Promise<GitHubError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GitHubError);
  return error as GitHubError;
}

describe('fetchers', () => {
  it('reads every contribution year with its totals', async () => {
    const result = await data().contributions('ada');
    expect(result.years.map((year) => [year.year, year.total])).toEqual([
      [2022, 5],
      [2023, 8],
      [2024, 15],
    ]);
    const days = contributionDays(result);
    expect(days.find((day) => day.date === '2024-02-29')).toEqual({ date: '2024-02-29', count: 5, level: 2 });
    // Every year from 2008 to 2024 in one request; the years without contributions are dropped.
    expect(fake.count('contributionCalendars')).toBe(1);
  });

  it('reads a backdated year before 2008 with a second request', async () => {
    const result = await data().contributions('babbage');
    expect(result.years.map((year) => [year.year, year.total])).toEqual([
      [1999, 2],
      [2024, 4],
    ]);
    expect(contributionDays(result).find((day) => day.date === '1999-07-04')).toEqual({
      date: '1999-07-04',
      count: 2,
      level: 1,
    });
    expect(fake.requests.map((request) => request.key)).toEqual([
      'contributionCalendars {"login":"babbage"}',
      'contributionCalendars {"login":"babbage"}',
    ]);
  });

  it('refreshes only the current year while the past years are younger than a day', async () => {
    const service = data();
    const first = await service.contributions('ada');
    clock += 11 * 60_000;
    // Stale: served at once, refreshed in the background with the current year alone.
    expect(await service.contributions('ada')).toBe(first);
    await vi.waitFor(() => expect(fake.count('contributionCalendars')).toBe(2));
    // The answer arrived; storing it follows a moment later (an await in the refresh).
    await vi.waitFor(async () => expect(await service.contributions('ada')).not.toBe(first));
    const refreshed = await service.contributions('ada');
    expect(refreshed).not.toBe(first);
    expect(refreshed.years.map((year) => year.year)).toEqual([2022, 2023, 2024]);
    // The past years are the cached objects; the current one was read again.
    expect(refreshed.years.slice(0, 2)).toEqual(first.years.slice(0, 2));
    expect(refreshed.years[0]).toBe(first.years[0]);
  });

  it('sums stats over every repository, forks included', async () => {
    expect(await data().userStats('ada')).toEqual({
      login: 'ada',
      name: 'Ada Lovelace',
      bio: 'Poetical scientist',
      createdAt: '2022-05-01T10:00:00Z',
      followers: 12,
      commitsLastYear: 18,
      privateCommitsLastYear: 0,
      reviews: 4,
      pullRequests: 30,
      mergedPullRequests: 20,
      discussionsStarted: 0,
      discussionsAnswered: 0,
      issues: 10,
      contributedTo: 5,
      publicRepositories: 4,
      stars: 157,
      repositoryStars: [
        { name: 'engine', stars: 120 },
        { name: 'notes', stars: 30 },
        { name: 'forked-lib', stars: 7 },
      ],
    });
  });

  it('sums language bytes over non-fork repositories, largest first', async () => {
    expect(await data().languages('ada')).toEqual([
      { name: 'TypeScript', color: '#3178c6', bytes: 80_000, repositories: 2 },
      { name: 'Python', color: '#3572A5', bytes: 30_000, repositories: 1 },
      { name: 'CSS', color: '#663399', bytes: 10_000, repositories: 1 },
      { name: 'Shell', color: '#8b949e', bytes: 5_000, repositories: 1 },
    ]);
  });

  it('reads a repository', async () => {
    const repository = await data().repository('ada', 'notes');
    expect(repository).toMatchObject({ nameWithOwner: 'ada/notes', stargazerCount: 30, isArchived: true });
  });

  it('reads every stargazer page of a small repository', async () => {
    const history = await data().starHistory('ada', 'engine');
    expect(history.total).toBe(120);
    expect(history.sampled).toBe(false);
    expect(history.points).toHaveLength(121);
    expect(history.points[0]).toEqual([Date.parse('2023-06-01T00:00:00Z'), 1]);
    expect(history.points.at(-1)).toEqual([FIXED_NOW, 120]);
  });

  it('samples 16 pages of a large repository and ends at the total', async () => {
    const history = await data().starHistory('grace', 'galaxy');
    expect(fake.count('/repos/grace/galaxy/stargazers')).toBe(16);
    expect(history.sampled).toBe(true);
    // 16 pages of 100 stars; star n was given (n - 1) x 6 h after 2020-01-01; the last page is read.
    expect(history.points).toHaveLength(16 * 100 + 1);
    expect(history.points[0]).toEqual([Date.parse('2020-01-01T00:00:00Z'), 1]);
    expect(history.points.at(-2)).toEqual([
      Date.parse('2020-01-01T00:00:00Z') + 2_499 * 6 * 3_600_000,
      2_500,
    ]);
    expect(history.points.at(-1)).toEqual([FIXED_NOW, 2_500]);
  });

  it('keeps push, pull request and issue events, newest first', async () => {
    const timeline = await data().timeline('ada');
    expect(timeline.map((event) => [event.kind, event.action, event.title])).toEqual([
      ['push', 'pushed 3 commits to main', null],
      ['pull-request', 'opened PR #7', 'Add gears'],
      ['issue', 'closed issue #3', 'Broken lever'],
      ['pull-request', 'merged PR #6', 'Fix <cogs>'],
    ]);
  });

  it("reads only the user's own commit times", async () => {
    const times = await data().commitTimes('ada');
    expect(times.map((time) => new Date(time).getUTCHours()).sort((a, b) => a - b)).toEqual([
      9, 9, 9, 14, 23,
    ]);
  });
});

describe('errors', () => {
  it('maps an unknown account or repository to not-found (404)', async () => {
    expect((await failure(data().userStats('nobody-here'))).status).toBe(404);
    expect((await failure(data().repository('ada', 'missing'))).status).toBe(404);
    expect((await failure(data().starHistory('ada', 'missing'))).status).toBe(404);
    expect((await failure(data().timeline('nobody-here'))).status).toBe(404);
  });

  it('rotates past a rate-limited token and benches it', async () => {
    fake.switches.limitedTokens.add('t1');
    const service = data(['t1', 't2']);
    await service.userStats('ada');
    await service.languages('ada');
    const tokens = fake.requests.map((request) => request.token);
    // t1 is tried at most once, then benched until its reset.
    expect(tokens.filter((token) => token === 't1').length).toBeLessThanOrEqual(1);
    expect(tokens.filter((token) => token === 't2').length).toBeGreaterThanOrEqual(2);
  });

  it('rotates past a secondary limit (retry-after)', async () => {
    fake.switches.secondaryLimitTokens.add('t1');
    const service = data(['t1', 't2']);
    expect((await service.repository('ada', 'engine')).stargazerCount).toBe(120);
    expect(fake.requests.at(-1)?.token).toBe('t2');
  });

  it('recognises a secondary limit from its message alone (no retry-after)', async () => {
    fake.switches.secondaryLimitTokens.add('t1');
    fake.switches.secondaryRetryAfter = null;
    const service = data(['t1', 't2']);
    expect((await service.repository('ada', 'engine')).stargazerCount).toBe(120);
    expect((await service.timeline('ada')).length).toBe(4);
    // t1 was tried once, then benched for a minute.
    expect(fake.requests.map((request) => [request.token, request.status])).toEqual([
      ['t1', 403],
      ['t2', 200],
      ['t2', 200],
    ]);
  });

  it('answers rate-limited (429) with the seconds until the reset when every token is out', async () => {
    fake.switches.limitedTokens.add('*');
    const error = await failure(data(['t1', 't2']).userStats('ada'));
    expect(error.status).toBe(429);
    // The fake resets 600 s after its now.
    expect(error.retryAfterSeconds).toBe(600);
  });

  it('benches a limited token for a minute when its reset time is already past (clock skew)', async () => {
    // This GitHub's clock is an hour behind the service: its reset (600 s after its now) looks past.
    const skewed = await startFakeGitHub(fixtures, { now: () => FIXED_NOW - 3_600_000 });
    try {
      skewed.switches.limitedTokens.add('*');
      const service = createGitHubData({
        apiUrl: skewed.url,
        tokens: ['t1'],
        store: storeInCardCache(createMemoryCache()),
        now: () => clock,
      });
      const error = await failure(service.userStats('ada'));
      expect(error.status).toBe(429);
      expect(error.retryAfterSeconds).toBe(60);
      expect(skewed.requests).toHaveLength(1);
    } finally {
      await skewed.close();
    }
  });

  it('retries 5xx answers and succeeds within the budget', async () => {
    fake.switches.failNext = 2;
    expect((await data().userStats('ada')).stars).toBe(157);
    expect(fake.requests.map((request) => request.status)).toEqual([502, 502, 200]);
  });

  it('gives up with upstream-down (502) inside the time budget', async () => {
    fake.switches.down = true;
    const started = performance.now();
    const error = await failure(data(['t1'], 800).userStats('ada'));
    expect(error.status).toBe(502);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('gives up on a slow upstream inside the time budget', async () => {
    fake.switches.delayMs = 1_500;
    const started = performance.now();
    const error = await failure(data(['t1'], 500).userStats('ada'));
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(error.status).toBe(502);
    expect(error.message).toContain('timed out');
  });
});

describe('cache', () => {
  it('makes one upstream call for 100 concurrent cold requests', async () => {
    const service = data();
    fake.switches.delayMs = 50;
    const results = await Promise.all(Array.from({ length: 100 }, () => service.userStats('ada')));
    expect(new Set(results.map((result) => result.stars))).toEqual(new Set([157]));
    expect(fake.count('userStats')).toBe(1);
  });

  it('serves stale data when the pool is rate-limited, then refreshes in the background', async () => {
    const service = data();
    await service.userStats('ada');
    clock += 3 * 3_600_000;
    fake.switches.limitedTokens.add('*');
    expect((await service.userStats('ada')).stars).toBe(157);
    fake.reset();
    // Still stale (the failed refresh stored nothing): this call refreshes in the background.
    expect((await service.userStats('ada')).followers).toBe(12);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(fake.count('userStats')).toBe(1);
  });

  it('revalidates REST resources with their ETag (304)', async () => {
    const service = data();
    await service.timeline('ada');
    clock += 3_600_000;
    await service.timeline('ada');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(
      fake.requests.filter((request) => request.key.startsWith('/users/ada/events')).map((r) => r.status),
    ).toEqual([200, 304]);
    expect((await service.timeline('ada')).length).toBe(4);
  });
});
