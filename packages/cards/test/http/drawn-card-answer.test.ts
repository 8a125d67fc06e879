/**
 * @module Cards drawn from fetched data through the app: a warm request reuses the parsed
 * query and the finished answer (no new drawing, no new ETag hash), while new data, errors and
 * 304 behave as without the memo.
 */
import { describe, expect, it, vi } from 'vitest';

// Counts the ETag hashes the pipeline computes (the real function still does the work).
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/http/etag.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/http/etag.js')>();
  return {
    ...original,
    etagOf: (body: string) => {
      hashes.count++;
      return original.etagOf(body);
    },
  };
});

const { CardError, createApp, customParam, defineEndpoint, renderOnce, staticCardCache, svgDocument } =
  await import('../../src/index.js');

/** Stands in for the GitHub data layer: a new object each time the data is refreshed. */
const upstream: { current: { stars: number } | 'down' } = { current: { stars: 1 } };
const counts = { parses: 0, draws: 0 };

const starsCard = defineEndpoint({
  path: '/stars-of',
  summary: 'Draws the current upstream number.',
  cache: staticCardCache,
  pure: false,
  params: {
    user: customParam<string>({ kind: 'string', required: true, max: 20, description: 'Who.' }, (raw) => {
      counts.parses++;
      return raw;
    }),
  },
  async render({ user }) {
    const data = upstream.current;
    if (data === 'down') throw new CardError(502, 'upstream is down');
    return renderOnce(data, `stars-of|${user}`, () => {
      counts.draws++;
      return svgDocument({ width: 40, height: 10, title: `${user} ${data.stars}`, body: '' });
    });
  },
});

function reset() {
  upstream.current = { stars: 1 };
  counts.parses = 0;
  counts.draws = 0;
  hashes.count = 0;
}

describe('answers of cards drawn from fetched data', () => {
  it('parses, draws and hashes once per data version, then only looks up', async () => {
    reset();
    const app = createApp({ endpoints: [starsCard] });
    const first = await app.request('/stars-of?user=ada');
    const tag = first.headers.get('etag') ?? '';
    expect(await first.text()).toContain('>ada 1</title>');
    for (const path of ['/stars-of?user=ada', '/api/stars-of?user=ada', '/stars-of?user=ada']) {
      const again = await app.request(path);
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).toBe(tag);
      expect(await again.text()).toContain('>ada 1</title>');
    }
    const notModified = await app.request('/stars-of?user=ada', { headers: { 'if-none-match': tag } });
    expect(notModified.status).toBe(304);
    expect(await notModified.text()).toBe('');
    expect(counts).toEqual({ parses: 1, draws: 1 });
    expect(hashes.count).toBe(1);

    // New data (a refresh landed): new drawing, new numbers, new ETag; the old tag no longer matches.
    upstream.current = { stars: 2 };
    const fresh = await app.request('/stars-of?user=ada', { headers: { 'if-none-match': tag } });
    expect(fresh.status).toBe(200);
    expect(await fresh.text()).toContain('>ada 2</title>');
    const freshTag = fresh.headers.get('etag') ?? '';
    expect(freshTag).not.toBe(tag);
    expect(freshTag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    expect(counts).toEqual({ parses: 1, draws: 2 });
    expect(hashes.count).toBe(2);
  });

  it('never keeps an error card as the answer, nor serves an old success during an error', async () => {
    reset();
    const app = createApp({ endpoints: [starsCard] });
    upstream.current = 'down';
    const down = await app.request('/stars-of?user=ada');
    expect(down.status).toBe(502);
    expect(await down.text()).toContain('upstream is down');

    upstream.current = { stars: 5 };
    const up = await app.request('/stars-of?user=ada');
    expect(up.status).toBe(200);
    expect(await up.text()).toContain('>ada 5</title>');

    upstream.current = 'down';
    expect((await app.request('/stars-of?user=ada')).status).toBe(502);
  });

  it('keeps answers apart per query and works with the memo turned off', async () => {
    reset();
    const app = createApp({ endpoints: [starsCard] });
    expect(await (await app.request('/stars-of?user=ada')).text()).toContain('>ada 1</title>');
    expect(await (await app.request('/stars-of?user=grace')).text()).toContain('>grace 1</title>');
    expect(counts).toEqual({ parses: 2, draws: 2 });

    const unmemoised = createApp({ endpoints: [starsCard], memo: false });
    await unmemoised.request('/stars-of?user=ada');
    await unmemoised.request('/stars-of?user=ada');
    // Without the memo every request is parsed; the drawing is still kept per data object.
    expect(counts).toEqual({ parses: 4, draws: 2 });
  });
});
