/**
 * @module The gallery in Chromium (one browser for the file): the page loads without console
 * errors, every card image renders, the builder writes URL and Markdown, and a screenshot of
 * each theme lands in test-artifacts/ for a person to look at.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { themeNames } from '../../src/index.js';
import { fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { browserTestsRun, launchChromium, waitInPage } from '../support/chromium.js';
import { type RunningBin, startBin } from '../support/server.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
/** Runs in the page (a string, so the test compiles without DOM types). */
const allImagesLoaded = '[...document.images].every((image) => image.complete)';

describe.runIf(browserTestsRun('gallery browser tests'))('gallery in Chromium', () => {
  let server: RunningBin;
  let github: FakeGitHub;
  let browser: Browser;
  const directory = mkdtempSync(join(tmpdir(), 'readme-cards-gallery-'));

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    // GitHub cards read the fake GitHub on loopback (tests never touch the internet).
    github = await startFakeGitHub(fixtures);
    server = await startBin({
      CARDS_STORE: join(directory, 'cards.db'),
      GITHUB_API_URL: github.url,
      GITHUB_TOKENS: 'gallery-token',
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await github?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** Opens a page that records console errors, page errors and failed requests. */
  async function open(path: string): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${server.url}${path}`, { waitUntil: 'load' });
    await waitInPage(page, allImagesLoaded);
    return { page, problems };
  }

  async function brokenImages(page: Page): Promise<string[]> {
    return page.evaluate<string[]>(
      '[...document.images].filter((image) => image.naturalWidth === 0).map((image) => image.currentSrc || image.src)',
    );
  }

  it('loads with every card image rendered and no console errors', async () => {
    const { page, problems } = await open('/');
    const count = await page.evaluate<number>('document.images.length');
    expect(count).toBeGreaterThanOrEqual(18);
    expect(await brokenImages(page)).toEqual([]);
    expect(problems).toEqual([]);
    await page.screenshot({ path: join(artifacts, 'gallery-full.png'), fullPage: true });
    await page.close();
  });

  it('builds the image URL and Markdown snippet from the form', async () => {
    const { page, problems } = await open('/');
    const section = page.locator('section#badge');
    await section.locator('input[name=message]').fill('shipped');
    await section.locator('select[name=style]').selectOption('for-the-badge');
    const url = await section.locator('input.url').inputValue();
    // Defaults (label=build) are left out of the URL.
    expect(url).toBe(`${server.url}/badge?message=shipped&style=for-the-badge`);
    expect(await section.locator('input.markdown').inputValue()).toBe(`![badge](${url})`);
    await waitInPage(
      page,
      "(() => { const live = document.querySelector('section#badge img.live'); return live.complete && live.naturalWidth > 0 && live.src.includes('shipped'); })()",
    );
    expect(problems).toEqual([]);
    await page.close();
  });

  it('renders every theme (screenshots in test-artifacts/theme-<name>.png)', async () => {
    for (const theme of themeNames) {
      const { page, problems } = await open(`/?theme=${theme}`);
      expect(await page.evaluate<string>("document.getElementById('theme').value")).toBe(theme);
      await waitInPage(page, allImagesLoaded);
      expect(await brokenImages(page), theme).toEqual([]);
      expect(problems, theme).toEqual([]);
      await page.screenshot({ path: join(artifacts, `theme-${theme}.png`), fullPage: true });
      await page.close();
    }
  }, 120_000);
});
