/**
 * @module The GitHub cards through the real bin: `readme-cards serve` with `GITHUB_API_URL` on
 * the fake GitHub and a token pool from `GITHUB_TOKENS`, as self-hosters run it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { textsOf } from '../support/github-app.js';
import { type RunningBin, startBin } from '../support/server.js';

describe('readme-cards serve with GitHub cards', () => {
  let github: FakeGitHub;
  let server: RunningBin;
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-github-'));

  beforeAll(async () => {
    github = await startFakeGitHub(fixtures, { now: () => FIXED_NOW, requireToken: true });
    server = await startBin({
      CARDS_STORE: join(directory, 'cards.db'),
      GITHUB_API_URL: github.url,
      GITHUB_TOKENS: 'first-token, second-token',
    });
  });

  afterAll(async () => {
    await server?.stop();
    await github?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('serves the twelve GitHub cards at both paths', async () => {
    const paths = [
      '/stats?username=ada',
      '/streak?username=ada',
      '/activity?username=ada',
      '/languages?username=ada',
      '/trophy?username=ada',
      '/repo?repo=ada/engine',
      '/stars?repo=ada/engine',
      '/views?username=ada',
      '/timeline?username=ada',
      '/snake?username=ada',
      '/neofetch?username=ada',
      '/hours?username=ada',
    ];
    for (const path of paths) {
      for (const prefix of ['', '/api']) {
        const response = await fetch(`${server.url}${prefix}${path}`);
        expect(response.status, `${prefix}${path}`).toBe(200);
        expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
        expect(await response.text()).toMatch(/^<svg /);
      }
    }
    const stats = textsOf(await (await fetch(`${server.url}/stats?username=ada`)).text());
    expect(stats).toContain('157');
    // The pool's tokens are the ones sent upstream.
    expect(new Set(github.requests.map((request) => request.token))).toEqual(
      new Set(['first-token', 'second-token']),
    );
  });

  it('answers 404 for an unknown account and 429 with Retry-After when the pool is exhausted', async () => {
    expect((await fetch(`${server.url}/views?username=nobody-here`)).status).toBe(404);
    github.switches.limitedTokens.add('*');
    try {
      const response = await fetch(`${server.url}/views?username=grace`);
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      github.switches.limitedTokens.clear();
    }
  });
});
