/**
 * @module The Cloudflare Worker in the real workerd runtime (miniflare): every endpoint answers,
 * the visitor counter counts in D1 and survives a restart, GitHub cards render from the fake
 * GitHub on loopback (fetched by workerd itself) and their data is kept in the Cache API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { endpoints } from '../../src/endpoints/index.js';
import { galleryExamples } from '../../src/gallery/examples.js';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { textsOf } from '../support/github-app.js';
import { startWorker } from '../support/workerd.js';

const origin = 'http://cards.example';

describe('the Cloudflare Worker in workerd', () => {
  let github: FakeGitHub;
  let worker: Miniflare;
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-workerd-'));
  const bindings = () => ({ GITHUB_TOKENS: 'worker-token', GITHUB_API_URL: github.url });

  const get = async (path: string, init?: RequestInit) => {
    const response = await worker.dispatchFetch(`${origin}${path}`, init as never);
    return { status: response.status, headers: response.headers, body: await response.text() };
  };

  beforeAll(async () => {
    github = await startFakeGitHub(fixtures, { now: () => FIXED_NOW, requireToken: true });
    worker = await startWorker(bindings(), directory);
  });

  afterAll(async () => {
    await worker?.dispose();
    await github?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers every endpoint at both paths, and the gallery and health check', async () => {
    const failures: string[] = [];
    for (const endpoint of endpoints) {
      const query = galleryExamples[endpoint.path]?.[0];
      for (const prefix of ['', '/api']) {
        const path = `${prefix}${endpoint.path}${query ? `?${query}` : ''}`;
        const { status, headers, body } = await get(path);
        if (
          status !== 200 ||
          headers.get('content-type') !== 'image/svg+xml; charset=utf-8' ||
          !body.startsWith('<svg ')
        )
          failures.push(`${path}: ${status} ${body.slice(0, 120)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(endpoints.length).toBeGreaterThan(20);
    const gallery = await get('/');
    expect(gallery.status).toBe(200);
    expect(gallery.body).toContain('/stats');
    expect(JSON.parse((await get('/healthz')).body)).toEqual({ status: 'ok' });
    expect((await get('/no-such-card')).status).toBe(404);
    expect((await get('/badge?style=round')).status).toBe(400);
  });

  it('draws GitHub cards byte for byte as the Node service does, from the fake over loopback', async () => {
    const node = createApp({ github: { tokens: ['worker-token'], apiUrl: github.url } });
    for (const path of [
      '/stats?username=ada',
      '/languages?username=ada',
      '/repo?repo=ada/engine',
      '/timeline?username=grace',
    ]) {
      const inWorker = await get(path);
      const onNode = await node.request(path);
      expect(inWorker.status, path).toBe(200);
      expect(inWorker.body, path).toBe(await onNode.text());
    }
    expect(textsOf((await get('/stats?username=ada')).body)).toContain('157');
    expect(new Set(github.requests.map((request) => request.token))).toEqual(new Set(['worker-token']));
  });

  it('answers the drop-in URLs of the projects it replaces as the Node service does', async () => {
    const node = createApp({ github: { tokens: ['worker-token'], apiUrl: github.url } });
    const urls = [
      '/api?username=ada&show_icons=true&theme=radical',
      '/api/top-langs?username=ada&layout=compact',
      '/api/pin?username=ada&repo=engine',
      '/api/gist?id=1',
      '/badge/build-passing-brightgreen?style=flat-square',
      '/icons?i=js,ts,py&perline=3',
      '/ghpvc/?username=drop-in-reader',
      '/streak?user=ada&hide_border=true',
      '/typing?lines=Hello;World&center=true',
      // streak-stats' timezone, skill-icons' own set.
      '/streak?user=ada&timezone=Asia/Kolkata',
      '/icons?i=aws,gcp,azure,react,vue,flutter&theme=light',
      '/api?username=ada&theme=auto&dark_theme=dracula',
      '/icons?i=aws,react&theme=auto',
      '/languages?username=lin&weight=commits',
      '/api?username=ada&exclude_repo=engine&commits_year=2023',
      '/api/top-langs?username=ada&layout=normal',
    ];
    for (const url of urls) {
      const [inWorker, onNode] = await Promise.all([get(url), node.request(url)]);
      expect(inWorker.status, url).toBe(onNode.status);
      expect(inWorker.body, url).toBe(await onNode.text());
      expect(inWorker.body, url).toMatch(/^<svg /);
    }
  });

  it('counts visitors in D1, across requests and across a restart of the runtime', async () => {
    const count = async () => textsOf((await get('/visitors?username=edge-reader')).body).at(-1);
    expect(await count()).toBe('1');
    expect(await count()).toBe('2');
    expect((await get('/visitors?username=edge-reader', { method: 'HEAD' })).status).toBe(200);
    await worker.dispose();
    worker = await startWorker(bindings(), directory);
    expect(await count()).toBe('3');
    const database = await worker.getD1Database('DB');
    const row = await database
      .prepare('SELECT count FROM visitor_counts WHERE key = ?1')
      .bind('edge-reader')
      .first();
    expect(row).toEqual({ count: 3 });
  });

  it('keeps GitHub data in the Cache API: a fresh isolate draws from it without GitHub', async () => {
    expect((await get('/neofetch?username=octocat')).status).toBe(200);
    await worker.dispose();
    worker = await startWorker(bindings(), directory);
    const before = github.requests.length;
    const again = await get('/neofetch?username=octocat');
    expect(again.status).toBe(200);
    expect(textsOf(again.body).join(' ')).toContain('octocat');
    expect(github.requests.slice(before)).toEqual([]);
  });

  it('answers a misconfiguration with an error card naming the variable, not a crash', async () => {
    const misconfigured = await startWorker({ GITHUB_API_URL: 'not a url' }, join(directory, 'bad'));
    try {
      const response = await misconfigured.dispatchFetch(`${origin}/stats?username=ada`);
      expect(response.status).toBe(500);
      expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
      expect(await response.text()).toContain('GITHUB_API_URL');
    } finally {
      await misconfigured.dispose();
    }
  });
});
