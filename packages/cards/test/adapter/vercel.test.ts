/**
 * @module The Vercel function (`api/index.ts`, `hono/vercel`) called as Vercel calls it: its
 * exported GET/HEAD handlers with web `Request`s, stores and GitHub from the environment.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { textsOf } from '../support/github-app.js';

type Handler = (request: Request) => Response | Promise<Response>;

const built = existsSync(new URL('../../dist/app.js', import.meta.url));

describe('the Vercel function', () => {
  let github: FakeGitHub;
  let handlers: { GET: Handler; HEAD: Handler };
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-vercel-'));
  const store = join(directory, 'cards.db');
  const call = async (handler: Handler, path: string, method = 'GET') => {
    const response = await handler(new Request(`https://readme-cards.vercel.app${path}`, { method }));
    return { status: response.status, headers: response.headers, body: await response.text() };
  };

  beforeAll(async () => {
    expect(built, 'run npm run build -w packages/cards first (the function imports dist/)').toBe(true);
    github = await startFakeGitHub(fixtures, { now: () => FIXED_NOW, requireToken: true });
    // The function reads its environment once, when Vercel loads it.
    process.env.CARDS_STORE = store;
    process.env.GITHUB_TOKENS = 'vercel-token';
    process.env.GITHUB_API_URL = github.url;
    process.env.LOG_LEVEL = 'silent';
    handlers = (await import('../../api/index.js')) as typeof handlers;
  });

  afterAll(async () => {
    for (const name of ['CARDS_STORE', 'GITHUB_TOKENS', 'GITHUB_API_URL', 'LOG_LEVEL'])
      delete process.env[name];
    await github?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('answers cards at their path and under /api, the gallery and unknown paths', async () => {
    const badge = await call(handlers.GET, '/badge?label=deploy&message=vercel');
    expect(badge.status).toBe(200);
    expect(badge.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(textsOf(badge.body)).toContain('vercel');
    expect((await call(handlers.GET, '/api/badge?label=deploy&message=vercel')).body).toBe(badge.body);
    expect((await call(handlers.GET, '/')).body).toContain('<!doctype html>');
    expect((await call(handlers.GET, '/nothing-here')).status).toBe(404);
    expect((await call(handlers.GET, '/badge?color=chartreuse')).status).toBe(400);
  });

  it('draws GitHub cards from GITHUB_API_URL with the GITHUB_TOKENS pool', async () => {
    const stats = await call(handlers.GET, '/api/stats?username=ada');
    expect(stats.status).toBe(200);
    expect(textsOf(stats.body)).toContain('157');
    expect(new Set(github.requests.map((request) => request.token))).toEqual(new Set(['vercel-token']));
  });

  it("answers the URLs of streak-stats' timezone and skill-icons' own set", async () => {
    const streak = await call(handlers.GET, '/streak?user=ada&timezone=Asia/Kolkata');
    expect(streak.status).toBe(200);
    expect(textsOf(streak.body)).toContain('Current Streak');
    const icons = await call(handlers.GET, '/icons?i=aws,gcp,azure,react,vue,flutter');
    expect(icons.body.match(/<g transform="translate\(\d+ \d+\)">/g)).toHaveLength(6);
    const auto = await call(handlers.GET, '/stats?username=ada&theme=auto');
    expect(auto.status).toBe(200);
    expect(auto.body).toContain('@media (prefers-color-scheme:dark){');
    const byCommits = await call(handlers.GET, '/languages?username=lin&weight=commits');
    expect(textsOf(byCommits.body)).toContain('Rust 40.0%');
    const stats = textsOf(
      (await call(handlers.GET, '/api?username=ada&exclude_repo=engine&commits_year=2023')).body,
    );
    expect(stats[stats.indexOf('Total Stars Earned:') + 1]).toBe('37');
    expect(stats[stats.indexOf('Total Commits (2023):') + 1]).toBe('8');
    const normal = (await call(handlers.GET, '/api/top-langs?username=ada&layout=normal')).body;
    expect(normal.match(/<rect class="language-progress" /g)).toHaveLength(4);
  });

  it('counts visitors in the CARDS_STORE database; HEAD does not count', async () => {
    expect(textsOf((await call(handlers.GET, '/visitors?username=vercel-reader')).body).at(-1)).toBe('1');
    expect(textsOf((await call(handlers.GET, '/visitors?username=vercel-reader')).body).at(-1)).toBe('2');
    expect((await call(handlers.HEAD, '/visitors?username=vercel-reader', 'HEAD')).status).toBe(200);
    const database = new Database(store, { readonly: true });
    try {
      expect(database.prepare('SELECT count FROM visitor_counts WHERE key = ?').get('vercel-reader')).toEqual(
        {
          count: 2,
        },
      );
    } finally {
      database.close();
    }
  });
});
