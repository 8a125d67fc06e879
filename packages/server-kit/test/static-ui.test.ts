/**
 * @module Tests: `staticUi` in front of a Hono app, through `app.request`: files and the SPA
 * fallback with the product's CSP, and a policy taking a nonce: every `index.html` answer has a
 * fresh one, on its module script and in its policy, and is never stored.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { afterAll, describe, expect, test } from 'vitest';
import { staticUi } from '../src/index.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'static-ui-'));
mkdirSync(path.join(root, 'assets'));
const indexHtml =
  '<!doctype html><html><head><script type="module" crossorigin src="/assets/index-1a2b.js"></script></head><body></body></html>';
writeFileSync(path.join(root, 'index.html'), indexHtml);
writeFileSync(path.join(root, 'assets', 'index-1a2b.js'), 'console.log(1)');
afterAll(() => rmSync(root, { recursive: true, force: true }));

function appWith(contentSecurityPolicy: string | ((pageNonce?: string) => string)): Hono {
  const app = new Hono();
  app.use(staticUi({ root, contentSecurityPolicy }));
  app.get('/api/ping', (c) => c.json({ pong: true }));
  return app;
}

describe('a fixed policy', () => {
  const app = appWith("default-src 'self'");

  test('index.html and screens are the file as built, revalidated; assets cached for a year', async () => {
    for (const url of ['/', '/index.html', '/projects/1']) {
      const answer = await app.request(url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-security-policy')).toBe("default-src 'self'");
      expect(answer.headers.get('cache-control')).toBe('no-cache');
      expect(await answer.text()).toBe(indexHtml);
    }
    const asset = await app.request('/assets/index-1a2b.js');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log(1)');
    expect((await app.request('/api/ping')).headers.get('content-security-policy')).toBeNull();
    expect((await app.request('/assets/missing.js')).status).toBe(404);
  });
});

describe('a policy taking the page nonce', () => {
  const app = appWith((nonce) => `style-src 'self'${nonce ? ` 'nonce-${nonce}'` : ''}`);

  async function page(url: string) {
    const answer = await app.request(url);
    const html = await answer.text();
    const nonce = /<script type="module" nonce="([^"]+)" crossorigin/.exec(html)?.[1];
    return { answer, html, nonce };
  }

  test('each index.html answer has its own nonce, in its policy and on its module script, never stored', async () => {
    const first = await page('/');
    const second = await page('/projects/1');
    expect(first.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(second.nonce).not.toBe(first.nonce);
    for (const { answer, html, nonce } of [first, second]) {
      expect(answer.headers.get('content-security-policy')).toBe(`style-src 'self' 'nonce-${nonce}'`);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('content-length')).toBe(String(new TextEncoder().encode(html).byteLength));
      expect(html).toBe(indexHtml.replace('<script type="module"', `<script type="module" nonce="${nonce}"`));
    }
  });

  test('other files get the policy without a nonce', async () => {
    const asset = await app.request('/assets/index-1a2b.js');
    expect(asset.headers.get('content-security-policy')).toBe("style-src 'self'");
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  test('a HEAD of the page has the headers and no body', async () => {
    const answer = await app.request('/', { method: 'HEAD' });
    expect(answer.headers.get('content-security-policy')).toMatch(/^style-src 'self' 'nonce-[^']+'$/);
    expect(await answer.text()).toBe('');
  });
});

test('a nonce policy refuses an index.html without a module script to carry it', () => {
  const bare = mkdtempSync(path.join(os.tmpdir(), 'static-ui-bare-'));
  try {
    writeFileSync(path.join(bare, 'index.html'), '<!doctype html><p>no script</p>');
    expect(() => staticUi({ root: bare, contentSecurityPolicy: () => "style-src 'self'" })).toThrow(
      /no <script type="module"> to carry the nonce/,
    );
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});
