/**
 * @module The shared pipeline through the app: status-aware error cards, cache headers, ETag
 * and 304, /healthz, unknown paths, no stack traces.
 */
import { describe, expect, it } from 'vitest';
import {
  CardError,
  createAnswerMemo,
  createApp,
  defineEndpoint,
  requiredText,
  staticCardCache,
  svgDocument,
  text,
} from '../../src/index.js';
import { expectRenderableSvg } from '../support/svg.js';

const failing = defineEndpoint({
  path: '/fails',
  summary: 'Fails the way the query asks.',
  cache: staticCardCache,
  pure: false,
  params: { how: requiredText({ description: 'Failure to raise.', max: 20 }) },
  render({ how }) {
    if (how === 'missing') throw new CardError(404, 'GitHub user "ghost" not found');
    if (how === 'limited')
      throw new CardError(429, 'GitHub rate limit reached', { retryAfterSeconds: 120.2 });
    if (how === 'upstream') throw new CardError(502, 'GitHub answered 503');
    if (how === 'bug') throw new TypeError('secret internal detail at /srv/app.js:1:1');
    return svgDocument({ width: 10, height: 10, title: how, body: '' });
  },
});

const logged: object[] = [];
const app = createApp({
  endpoints: [failing],
  logger: { warn: () => {}, error: (details) => logged.push(details) },
});

async function get(path: string, headers: Record<string, string> = {}) {
  const response = await app.request(path, { headers });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

describe('error cards', () => {
  it.each([
    ['missing', 404, 'public, max-age=300', 'GitHub user &quot;ghost&quot; not found'],
    ['limited', 429, 'public, max-age=60', 'GitHub rate limit reached'],
    ['upstream', 502, 'public, max-age=60', 'GitHub answered 503'],
  ])('CardError %s becomes a %i SVG card', async (how, status, cacheControl, text) => {
    for (const prefix of ['', '/api']) {
      const response = await get(`${prefix}/fails?how=${how}`);
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe(cacheControl);
      expect(response.body).toContain(text);
      expectRenderableSvg(response.body);
    }
  });

  it('sends Retry-After (whole seconds, rounded up) with a 429', async () => {
    const response = await get('/fails?how=limited');
    expect(response.headers.get('retry-after')).toBe('121');
  });

  it('turns an unexpected exception into a 500 card without internals, and logs it', async () => {
    const response = await get('/fails?how=bug');
    expect(response.status).toBe(500);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.body).not.toContain('secret');
    expect(response.body).not.toContain('/srv/app.js');
    expectRenderableSvg(response.body);
    expect(logged.length).toBeGreaterThan(0);
  });

  it('answers a missing required parameter with 400 naming it', async () => {
    const response = await get('/fails');
    expect(response.status).toBe(400);
    expect(response.body).toContain('how is required');
  });

  it('answers an unknown path with a 404 SVG card', async () => {
    const response = await get('/nope');
    expect(response.status).toBe(404);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expectRenderableSvg(response.body);
  });
});

describe('caching', () => {
  const cards = createApp();

  it('gives static cards a long shared Cache-Control with stale-while-revalidate', async () => {
    const response = await cards.request('/badge');
    expect(response.headers.get('cache-control')).toBe(
      'public, max-age=86400, s-maxage=86400, stale-while-revalidate=604800',
    );
  });

  it('answers 304 with no body when If-None-Match lists the ETag (also weak and in a list)', async () => {
    const first = await cards.request('/typing?lines=etag');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-z]+-[0-9a-z]+"$/);
    for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await cards.request('/typing?lines=etag', { headers: { 'if-none-match': header } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');
      expect(again.headers.get('etag')).toBe(etag);
      expect(again.headers.get('cache-control')).toContain('max-age=86400');
    }
    const changed = await cards.request('/typing?lines=etag', { headers: { 'if-none-match': '"stale"' } });
    expect(changed.status).toBe(200);
  });

  it('gives different bodies different ETags and the same body the same ETag', async () => {
    const a = await createApp().request('/badge?message=a');
    const b = await createApp().request('/badge?message=b');
    const a2 = await createApp().request('/badge?message=a');
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
    expect(a.headers.get('etag')).toBe(a2.headers.get('etag'));
  });

  it('never lets a cache keep /visitors, and sends no validator for it', async () => {
    const response = await cards.request('/visitors?username=cache-test');
    expect(response.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate, max-age=0');
    expect(response.headers.get('pragma')).toBe('no-cache');
    expect(response.headers.get('expires')).toBe('0');
    expect(response.headers.get('etag')).toBeNull();
  });

  it('produces byte-identical output for the same query in separate apps (deterministic)', async () => {
    const path = '/text?text=same&animation=wave';
    expect(await (await createApp().request(path)).text()).toBe(
      await (await createApp().request(path)).text(),
    );
  });

  it('serves SVG with a restrictive Content-Security-Policy and nosniff', async () => {
    const response = await cards.request('/badge');
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('service routes', () => {
  it('/healthz answers ok as JSON', async () => {
    const response = await createApp().request('/healthz');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 with Retry-After, not 500, when the visitor store fails', async () => {
    const failing = {
      increment: () => Promise.reject(new Error('connection refused')),
      peek: () => Promise.reject(new Error('connection refused')),
      close: async () => {},
    };
    const response = await createApp({ visitors: failing }).request('/visitors?username=down');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('30');
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    const body = await response.text();
    expect(body).toContain('visitor counter is unavailable');
    expect(body).not.toContain('connection refused');
  });

  it('HEAD /visitors does not count a visit', async () => {
    const app = createApp();
    const count = async () =>
      Number(/visitors: (\d+)</.exec(await (await app.request('/visitors?username=head')).text())![1]);
    expect(await count()).toBe(1);
    expect((await app.request('/visitors?username=head', { method: 'HEAD' })).status).toBe(200);
    expect(await count()).toBe(2);
  });

  it('HEAD answers like GET without a body', async () => {
    const response = await createApp().request('/badge', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await response.text()).toBe('');
  });
});

describe('rendered-answer memo', () => {
  let renders = 0;
  const counted = defineEndpoint({
    path: '/counted',
    summary: 'Counts its renders.',
    cache: staticCardCache,
    pure: true,
    params: { word: text({ description: 'A word.', max: 10, default: 'a' }) },
    render({ word }) {
      renders++;
      return svgDocument({ width: 10, height: 10, title: word, body: '' });
    },
  });

  it('renders a query-only card once for /x and /api/x, and again for another query', async () => {
    const app = createApp({ endpoints: [counted] });
    const plain = await (await app.request('/counted?word=memo')).text();
    const api = await (await app.request('/api/counted?word=memo')).text();
    expect(api).toBe(plain);
    expect(renders).toBe(1);
    await app.request('/counted?word=other');
    expect(renders).toBe(2);
    const unmemoised = createApp({ endpoints: [counted], memo: false });
    await unmemoised.request('/counted?word=memo');
    await unmemoised.request('/counted?word=memo');
    expect(renders).toBe(4);
  });

  it('evicts by size so large distinct cards cannot grow memory without bound', () => {
    const memo = createAnswerMemo({ maxEntries: 1_000, maxBytes: 20_000 });
    for (let index = 0; index < 100; index++) {
      memo.set(`/skills?${index}`, { status: 200, body: 'x'.repeat(1_000), headers: {} });
    }
    expect(memo.calculatedSize).toBeLessThanOrEqual(20_000);
    expect(memo.size).toBeLessThan(10);
  });
});

describe('/api aliases of the service routes', () => {
  it('answers /api/healthz and serves the gallery at /api/ with a restrictive CSP', async () => {
    const app = createApp();
    expect(await (await app.request('/api/healthz')).json()).toEqual({ status: 'ok' });
    const gallery = await app.request('/api/');
    expect(gallery.headers.get('content-type')).toContain('text/html');
    expect(gallery.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});
