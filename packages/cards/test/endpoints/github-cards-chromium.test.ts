/**
 * @module Every GitHub card in every theme rendered by Chromium (one browser launch): each image
 * decodes, no console error, the snake really animates, and screenshots of a sample land in
 * test-artifacts/ for a person to look at.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type RunningServer, startNodeServer } from '@suite/server-kit';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, themeNames } from '../../src/index.js';
import { FIXED_NOW, fixtures } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { browserTestsRun, launchChromium, waitInPage } from '../support/chromium.js';

const artifacts = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));

/** One example per GitHub card, with the options that draw the most. */
const cards: Record<string, string> = {
  stats: '/stats?username=grace&showIcons=true',
  streak: '/streak?username=grace&showCalendar=true',
  activity: '/activity?username=grace',
  languages: '/languages?username=grace&langsCount=8',
  trophy: '/trophy?username=grace&column=3',
  repo: '/repo?repo=grace/galaxy',
  stars: '/stars?repo=ada/engine',
  views: '/views?username=grace',
  timeline: '/timeline?username=ada&limit=8',
  snake: '/snake?username=grace&duration=6',
  neofetch: '/neofetch?username=ada',
  hours: '/hours?username=grace',
};
const screenshotThemes = new Set(['github-dark', 'transparent', 'dracula', 'highcontrast']);

describe.runIf(browserTestsRun('GitHub card browser tests'))('GitHub cards in Chromium', () => {
  let github: FakeGitHub;
  let server: RunningServer;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    github = await startFakeGitHub(fixtures, { now: () => FIXED_NOW });
    const app = createApp({
      github: { apiUrl: github.url, tokens: ['browser-token'] },
      now: () => new Date(FIXED_NOW),
    });
    server = await startNodeServer({
      fetch: app.fetch,
      host: '127.0.0.1',
      port: 0,
      exitOnSignal: false,
      announce: () => {},
    });
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await github?.close();
  });

  it('renders every card in every theme without a console error', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    // Chromium asks for a favicon when it opens an SVG as a document; the service has none.
    await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning')
        problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    for (const theme of themeNames) {
      for (const [name, path] of Object.entries(cards)) {
        const url = `${server.url}${path}&theme=${theme}`;
        // Opened as a document, so CSS or markup errors of the SVG itself reach the console.
        await page.goto(url, { waitUntil: 'load' });
        const size = await page.evaluate<{ width: number; height: number }>(
          '(() => { const box = document.documentElement.getBoundingClientRect(); return { width: box.width, height: box.height }; })()',
        );
        expect(size.width, `${name} in ${theme}`).toBeGreaterThan(100);
        expect(size.height, `${name} in ${theme}`).toBeGreaterThan(50);
        if (screenshotThemes.has(theme)) {
          await page
            .locator('svg')
            .first()
            .screenshot({ path: `${artifacts}github-${name}-${theme}.png` });
        }
      }
      // And as images, the way README pages embed them.
      const html = `<body style="background:#888">${Object.values(cards)
        .map((path) => `<img src="${server.url}${path}&amp;theme=${theme}">`)
        .join('')}</body>`;
      await page.goto(`${server.url}/healthz`);
      await page.setContent(html, { waitUntil: 'load' });
      await waitInPage(page, '[...document.images].every((image) => image.complete)');
      const broken = await page.evaluate<number>(
        '[...document.images].filter((image) => image.naturalWidth === 0).length',
      );
      expect(broken, `broken images in ${theme}`).toBe(0);
    }
    expect(problems).toEqual([]);
    await page.close();
    // 240 page loads: generous room on a loaded 2-core machine (this is no timing assertion).
  }, 180_000);

  it('animates the snake: cells are eaten as the loop runs', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/snake?username=grace&duration=3`, { waitUntil: 'load' });
    // Level-0 cells are never animated: their colour is the "eaten" colour.
    const eaten = (time: number) =>
      page.evaluate<number>(
        `(() => {
          document.getAnimations().forEach((animation) => { animation.pause(); animation.currentTime = ${time}; });
          const empty = getComputedStyle(document.querySelector('rect[width="12"]:not(.c):not(.s)')).fill;
          return [...document.querySelectorAll('rect.c')].filter((cell) => getComputedStyle(cell).fill === empty).length;
        })()`,
      );
    const early = await eaten(100);
    const late = await eaten(2_995);
    const total = await page.evaluate<number>('document.querySelectorAll("rect.c").length');
    expect(early).toBeLessThan(late);
    // Near the end of the loop every eaten cell is empty.
    expect(late).toBe(total);
    // The head moves: its transform differs between two moments.
    const headAt = (time: number) =>
      page.evaluate<string>(
        `(() => { document.getAnimations().forEach((animation) => { animation.currentTime = ${time}; }); return getComputedStyle(document.querySelectorAll('rect.s')[3]).transform; })()`,
      );
    expect(await headAt(500)).not.toBe(await headAt(1_500));
    // The body follows the head one cell (16 px along the path) behind each segment, at any time.
    for (const time of [250, 900, 1_700, 2_600]) {
      const positions = await page.evaluate<number[][]>(
        `(() => { document.getAnimations().forEach((animation) => { animation.currentTime = ${time}; }); return [...document.querySelectorAll('rect.s')].map((segment) => { const matrix = new DOMMatrix(getComputedStyle(segment).transform); return [matrix.e, matrix.f]; }); })()`,
      );
      for (let index = 1; index < positions.length; index += 1) {
        const [x1 = 0, y1 = 0] = positions[index - 1] ?? [];
        const [x2 = 0, y2 = 0] = positions[index] ?? [];
        const gap = Math.abs(x1 - x2) + Math.abs(y1 - y2);
        expect(gap, `segments ${index - 1} and ${index} at ${time} ms`).toBeGreaterThan(15);
        expect(gap, `segments ${index - 1} and ${index} at ${time} ms`).toBeLessThan(17);
      }
    }
    await page.screenshot({ path: `${artifacts}github-snake-midway.png` });
    await page.close();
  });
});
