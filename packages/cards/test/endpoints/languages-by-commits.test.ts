/**
 * @module /languages?weight=commits: languages weighted by the user's own commits of
 * the last year to each repository, theirs or anyone's, forks never committed to left out;
 * one GraphQL request, cached like the byte shares. Against the fake GitHub (fixture `lin`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { textsOf, useGitHubTestBed } from '../support/github-app.js';
import { type RunningBin, startBin } from '../support/server.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();

describe('/languages?weight=commits', () => {
  it('weights each repository committed to by the commits, including other owners, not untouched forks', async () => {
    const app = bed().app();
    const bytes = await app('/languages?username=lin');
    expect(bytes.status).toBe(200);
    expect(textsOf(bytes.body)).toEqual(expect.arrayContaining(['TypeScript 90.0%', 'CSS 10.0%']));
    const commits = await app('/languages?username=lin&weight=commits');
    expect(commits.status).toBe(200);
    expectRenderableSvg(commits.body);
    const texts = textsOf(commits.body);
    // 8 commits to acme/engine (Rust and C, half each), 2 to tool (TypeScript 90 %, CSS 10 %).
    expect(texts).toEqual(expect.arrayContaining(['Rust 40.0%', 'C 40.0%', 'TypeScript 18.0%', 'CSS 2.0%']));
    expect(texts.join(' ')).not.toContain('Go');
  });

  it('costs one GraphQL request, then answers from the cache', async () => {
    const app = bed().app();
    const before = bed().fake.requests.length;
    expect((await app('/languages?username=lin&weight=commits')).status).toBe(200);
    expect(bed().fake.requests.length - before).toBe(1);
    expect((await app('/languages?username=lin&weight=commits&theme=nord')).status).toBe(200);
    expect(bed().fake.requests.length - before).toBe(1);
  });

  it('refuses another weight with a 400 naming the parameter', async () => {
    const response = await bed().app()('/languages?username=lin&weight=lines');
    expect(response.status).toBe(400);
    expect(textsOf(response.body).join(' ')).toContain('weight');
  });
});

describe('/languages?weight=commits through the bin', () => {
  let github: FakeGitHub;
  let server: RunningBin;
  beforeAll(async () => {
    github = await startFakeGitHub(fixtures, { now: () => FIXED_NOW, requireToken: true });
    server = await startBin({
      CARDS_STORE: ':memory:',
      GITHUB_TOKENS: 'bin-token',
      GITHUB_API_URL: github.url,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await github?.close();
  });

  it('draws the commit-weighted shares', async () => {
    const response = await fetch(`${server.url}/languages?username=lin&weight=commits`);
    expect(response.status).toBe(200);
    expect(textsOf(await response.text())).toContain('Rust 40.0%');
  });
});
