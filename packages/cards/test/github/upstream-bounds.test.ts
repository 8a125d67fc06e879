/**
 * @module One client cannot spend the token pool: "not found" is cached per
 * resource for a few minutes, and upstream calls are bounded per client.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/index.js';
import { FIXED_NOW } from '../fake-github/fixtures.mjs';
import { useGitHubTestBed } from '../support/github-app.js';

const bed = useGitHubTestBed();
afterEach(() => {
  bed().fake.reset();
  bed().clock.now = FIXED_NOW;
});

/** What @hono/node-server hands the app as `env`: the socket the request came in on. */
const fromPeer = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });

function appFor(options: { callsPerClientPerMinute?: number } = {}) {
  const { fake, clock } = bed();
  const app = createApp({
    github: { apiUrl: fake.url, tokens: ['test-token'], ...options },
    now: () => new Date(clock.now),
  });
  return async (path: string, peer = '198.51.100.1') => {
    const response = await app.request(path, {}, fromPeer(peer));
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
}

describe('negative caching', () => {
  it.each([
    ['/stats?username=nobody-here'],
    ['/stars?repo=ada/missing'],
    ['/hours?username=nobody-here'],
    ['/repo?repo=ada/missing'],
  ])('100 requests for %s cost the upstream calls of one', async (path) => {
    const get = appFor();
    expect((await get(path)).status).toBe(404);
    const first = bed().fake.requests.length;
    expect(first).toBeGreaterThan(0);
    for (let index = 0; index < 99; index++) expect((await get(path)).status).toBe(404);
    expect(bed().fake.requests.length).toBe(first);
    // Five minutes later GitHub is asked again (the account may exist by now).
    bed().clock.now += 5 * 60_000;
    expect((await get(path)).status).toBe(404);
    expect(bed().fake.requests.length).toBe(2 * first);
  });
});

describe('upstream calls per client', () => {
  it('a client asking for many cold cards gets 429 with Retry-After once its calls are spent; others still get cards', async () => {
    const get = appFor({ callsPerClientPerMinute: 20 });
    const statuses: number[] = [];
    for (let index = 0; index < 40; index++)
      statuses.push((await get(`/stats?username=ghost-${index}`)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(404));
    expect(new Set(statuses.slice(20))).toEqual(new Set([429]));
    expect(bed().fake.requests.length).toBe(20);
    const limited = await get('/stats?username=ghost-99');
    expect(limited.headers.get('retry-after')).toBe('60');
    // The drop-in URLs of other services are charged to the same client.
    expect((await get('/api?username=ghost-98')).status).toBe(429);
    // Another client is served, and cached cards cost nothing, so the first client still sees them.
    expect((await get('/stats?username=ada', '198.51.100.2')).status).toBe(200);
    expect((await get('/stats?username=ada')).status).toBe(200);
    bed().clock.now += 60_000;
    expect((await get('/stats?username=ghost-100')).status).toBe(404);
  });
});
