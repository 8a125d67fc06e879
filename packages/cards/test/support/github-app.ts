/**
 * @module A readme-cards app wired to the fake GitHub (fixed clock, in-memory caches), for the
 * GitHub endpoint tests.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp } from '../../src/index.js';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { expectRenderableSvg } from './svg.js';

interface GitHubTestBed {
  fake: FakeGitHub;
  /** The apps' clock (epoch ms); starts at the fixtures' now. */
  clock: { now: number };
  /** A fresh app (cold caches) each call; `tokens` default to one token. */
  app(
    tokens?: string[],
  ): (path: string, init?: RequestInit) => Promise<{ status: number; headers: Headers; body: string }>;
  close(): Promise<void>;
}

async function startGitHubTestBed(): Promise<GitHubTestBed> {
  const fake = await startFakeGitHub(fixtures, { now: () => FIXED_NOW, requireToken: true });
  const clock = { now: FIXED_NOW };
  return {
    fake,
    clock,
    app(tokens = ['test-token']) {
      const app = createApp({ github: { apiUrl: fake.url, tokens }, now: () => new Date(clock.now) });
      return async (path, init) => {
        const response = await app.request(path, init);
        return { status: response.status, headers: response.headers, body: await response.text() };
      };
    },
    close: () => fake.close(),
  };
}

/** The text content of every `<text>` element, unescaped, in document order. */
export function textsOf(svg: string): string[] {
  return [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((match) =>
    (match[1] ?? '')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&'),
  );
}

/** The SVG a fresh app of `bed` answers for `path`, checked to be a 200 and renderable. */
export async function okCard(bed: GitHubTestBed, path: string): Promise<string> {
  const response = await bed.app()(path);
  expect(response.status, `${path}: ${textsOf(response.body).join(' | ')}`).toBe(200);
  expectRenderableSvg(response.body);
  return response.body;
}

/** Starts one test bed for the calling test file and stops it after; returns its accessor. */
export function useGitHubTestBed(): () => GitHubTestBed {
  let bed: GitHubTestBed | undefined;
  beforeAll(async () => {
    bed = await startGitHubTestBed();
  });
  afterAll(() => bed?.close());
  return () => {
    if (bed === undefined) throw new Error('the GitHub test bed starts in beforeAll');
    return bed;
  };
}
