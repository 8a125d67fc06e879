/**
 * @module The GitHub endpoints under trouble: unknown accounts, exhausted tokens, GitHub down,
 * a crowd of cold requests, and a rate-limited pool that still answers from its cache.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { textsOf, useGitHubTestBed } from '../support/github-app.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();
afterEach(() => {
  bed().fake.reset();
  bed().clock.now = FIXED_NOW;
});

const githubPaths = [
  '/stats?username=nobody-here',
  '/streak?username=nobody-here',
  '/activity?username=nobody-here',
  '/languages?username=nobody-here',
  '/trophy?username=nobody-here',
  '/views?username=nobody-here',
  '/timeline?username=nobody-here',
  '/snake?username=nobody-here',
  '/neofetch?username=nobody-here',
  '/hours?username=nobody-here',
  '/repo?repo=ada/missing',
  '/stars?repo=ada/missing',
];

describe('error cards', () => {
  it.each(githubPaths)('%s answers 404 with an SVG card', async (path) => {
    const response = await bed().app()(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expectRenderableSvg(response.body);
    expect(textsOf(response.body).join(' ')).toContain('was not found on GitHub');
  });

  it('answers 429 with Retry-After when every token is exhausted and nothing is cached', async () => {
    bed().fake.switches.limitedTokens.add('*');
    const response = await bed().app(['t1', 't2'])('/stats?username=ada');
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('600');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(textsOf(response.body).join(' ')).toContain('retry in 600 s');
  });

  it('says a token is needed when none is configured (REST cards still work)', async () => {
    const app = bed().app([]);
    const stats = await app('/stats?username=ada');
    expect(stats.status).toBe(502);
    expect(textsOf(stats.body).join(' ')).toContain('set GITHUB_TOKENS');
    expect((await app('/stars?repo=ada/engine')).status).toBe(200);
  });

  it('answers 502 when GitHub sends data in an unexpected shape', async () => {
    const response = await bed().app()('/stars?repo=grace/odd-data');
    expect(response.status).toBe(502);
    expect(textsOf(response.body).join(' ')).toContain('unexpected shape');
  });

  it('answers 502 when GitHub is down', async () => {
    bed().fake.switches.down = true;
    const started = performance.now();
    const response = await bed().app()('/languages?username=ada');
    expect(response.status).toBe(502);
    expectRenderableSvg(response.body);
    // Inside GitHub's image proxy timeout (about 4 s).
    expect(performance.now() - started).toBeLessThan(3_500);
  });

  it('keeps every answer under 3 s even when a card needs several slow calls in a row', async () => {
    // Each call takes 1.4 s: /streak needs one for ada, two in a row for babbage (a backdated year).
    bed().fake.switches.delayMs = 1_400;
    const app = bed().app();
    expect((await app('/streak?username=ada')).status).toBe(200);
    const started = performance.now();
    const response = await app('/streak?username=babbage');
    expect(response.status).toBe(502);
    expect(performance.now() - started).toBeLessThan(2_900);
  });

  it('rotates to the next token when one is rate-limited', async () => {
    bed().fake.switches.limitedTokens.add('t1');
    const response = await bed().app(['t1', 't2'])('/stats?username=ada');
    expect(response.status).toBe(200);
    expect(bed().fake.requests.at(-1)?.token).toBe('t2');
  });
});

describe('cache', () => {
  it('makes one upstream call per resource for 100 concurrent cold requests', async () => {
    const app = bed().app();
    bed().fake.switches.delayMs = 30;
    const responses = await Promise.all([
      ...Array.from({ length: 100 }, () => app('/stats?username=grace')),
      ...Array.from({ length: 100 }, () => app('/streak?username=grace')),
    ]);
    expect(new Set(responses.map((response) => response.status))).toEqual(new Set([200]));
    expect(bed().fake.count('userStats')).toBe(1);
    // grace's ten contribution years (2015 .. 2024) come in one request.
    expect(bed().fake.count('contributionCalendars')).toBe(1);
  });

  it('reads every calendar year of a cold /streak in one GraphQL request', async () => {
    const app = bed().app();
    expect((await app('/streak?username=grace')).status).toBe(200);
    expect(bed().fake.requests.map((request) => [request.kind, request.key])).toEqual([
      ['graphql', 'contributionCalendars {"login":"grace"}'],
    ]);
  });

  it('adds one request for a contribution year backdated before 2008', async () => {
    const response = await bed().app()('/streak?username=babbage');
    expect(response.status).toBe(200);
    // 2 (1999) + 1 + 3 (13-14 March 2024); the current streak runs to yesterday, today is open.
    expect(textsOf(response.body).slice(0, 4)).toEqual([
      '6',
      'Total Contributions',
      '4 Jul 1999 – Present',
      '2',
    ]);
    expect(bed().fake.requests.map((request) => [request.kind, request.key])).toEqual([
      ['graphql', 'contributionCalendars {"login":"babbage"}'],
      ['graphql', 'contributionCalendars {"login":"babbage"}'],
    ]);
  });

  it('answers 200 from the cache when the pool is rate-limited', async () => {
    const app = bed().app();
    const warm = await app('/stats?username=ada');
    const streak = await app('/streak?username=ada');
    bed().clock.now += 3 * 3_600_000;
    bed().fake.switches.limitedTokens.add('*');
    const stale = await app('/stats?username=ada');
    expect(stale.status).toBe(200);
    expect(textsOf(stale.body)).toEqual(textsOf(warm.body));
    expect((await app('/streak?username=ada')).status).toBe(200);
    expect(streak.status).toBe(200);
  });

  it('refreshes stale data in the background and draws the new numbers', async () => {
    const app = bed().app();
    const ada = fixtures.users.find((user) => (user as { login: string }).login === 'ada') as {
      repositories: Array<{ stars: number }>;
    };
    const engine = ada.repositories[0];
    const first = await app('/stats?username=ada');
    expect(textsOf(first.body)).toContain('157');
    const oldTag = first.headers.get('etag') ?? '';
    expect(oldTag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    engine.stars += 1;
    try {
      bed().clock.now += 3 * 3_600_000;
      // Stale: answered at once with the old data (and its kept answer) while the refresh runs.
      const stale = await app('/stats?username=ada');
      expect(textsOf(stale.body)).toContain('157');
      expect(stale.headers.get('etag')).toBe(oldTag);
      await new Promise((resolve) => setTimeout(resolve, 300));
      // The kept answer belongs to the old data: the refreshed numbers get a new ETag, and a
      // client revalidating with the old one gets the new card instead of a 304.
      const fresh = await app('/stats?username=ada', { headers: { 'if-none-match': oldTag } });
      expect(fresh.status).toBe(200);
      expect(textsOf(fresh.body)).toContain('158');
      const newTag = fresh.headers.get('etag') ?? '';
      expect(newTag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
      expect(newTag).not.toBe(oldTag);
      const revalidated = await app('/stats?username=ada', { headers: { 'if-none-match': newTag } });
      expect(revalidated.status).toBe(304);
      expect(revalidated.body).toBe('');
    } finally {
      engine.stars -= 1;
    }
  });

  it('draws /streak and /activity separately although they share the cached calendars', async () => {
    const app = bed().app();
    // Same account, same day, default flags: the drawn-card memo keys must still differ per card.
    const streak = await app('/streak?username=ada');
    const activity = await app('/activity?username=ada');
    expect(streak.status).toBe(200);
    expect(activity.status).toBe(200);
    expect(textsOf(streak.body).join(' ')).toContain('Longest Streak');
    expect(textsOf(activity.body).join(' ')).not.toContain('Longest Streak');
    expect(activity.body).not.toBe(streak.body);
  });

  it('serves repeated requests without calling GitHub again', async () => {
    const app = bed().app();
    await app('/languages?username=ada');
    await app('/languages?username=ada&langsCount=3');
    await app('/neofetch?username=ada');
    expect(bed().fake.count('userLanguages')).toBe(1);
  });
});
