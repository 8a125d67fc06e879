/**
 * @module Layout that never collides: every card in every theme, fed the longest values its
 * parameters and GitHub allow, is laid out by Chromium, and no two texts overlap and no text
 * leaves the card (getBBox of each text in the card's coordinates). Cards of one theme share one
 * page, each in its own shadow root so their styles stay apart.
 */
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, endpoints, themeNames } from '../../src/index.js';
import { FIXED_NOW } from '../fake-github/fixtures.mjs';
import { type FakeGitHub, startFakeGitHub } from '../fake-github/server.mjs';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { hostileAccount, hostileLogin, hostileRepository } from './hostile-account.js';

/** `length` characters of `unit` repeated (W and M are the widest Verdana letters). */
const filled = (length: number, unit = 'W') => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
/** `length` characters of wide words, so wrapping at spaces is exercised too. */
const words = (length: number) => filled(length, 'Wombat Mammoth ').trim();
const query = (values: Record<string, string | number | boolean>) =>
  new URLSearchParams(
    Object.entries(values).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();

const login = hostileLogin;
const repo = `${hostileLogin}/${hostileRepository}`;
const skills =
  'typescript,javascript,python,go,rust,cpp,dotnet,java,kotlin,swift,php,ruby,dart,scala,elixir,haskell,lua,julia,zig,perl,clojure,erlang,ocaml,bash,html,css,sass,tailwind,bootstrap,react,vue,angular,svelte,nextjs,nuxt,astro,solid,remix,jquery,threejs';

/** Hostile queries per card path (every endpoint must have some). */
const cases: Record<string, string[]> = {
  '/typing': [
    query({ lines: `${words(120)};${filled(120)};${filled(120, '漢')}`, fontSize: 48, cursor: 'WWW' }),
    query({ lines: Array.from({ length: 10 }, () => filled(120, 'M')).join(';'), fontSize: 12 }),
  ],
  '/text': [
    query({ text: words(120), animation: 'glitch' }),
    query({ text: filled(120), animation: 'wave' }),
  ],
  '/banner': [
    query({ title: filled(100), subtitle: words(200) }),
    query({ title: words(100), subtitle: filled(200), alignment: 'left', pattern: 'grid' }),
  ],
  '/badge': [
    query({ label: words(100), message: filled(100) }),
    query({ label: filled(100), message: words(100), style: 'for-the-badge', animation: 'shimmer' }),
  ],
  '/skills': [query({ skills, showLabels: true, size: 48 }), query({ skills, showLabels: true, size: 16 })],
  '/icon': [query({ name: 'stackoverflow', size: 64, radius: 32 })],
  '/quote': [
    query({ text: filled(400), author: filled(80) }),
    query({ text: words(400), author: words(80), alignment: 'right' }),
  ],
  '/svg': ['divider', 'status', 'pill', 'card'].flatMap((type) => [
    query({ type, text: filled(300) }),
    query({ type, text: words(300) }),
  ]),
  '/visitors': [
    query({ username: filled(100), label: filled(60) }),
    query({ username: filled(100, 'm'), label: words(60), style: 'for-the-badge' }),
  ],
  '/stats': [query({ username: login, showIcons: true, rank: true, allCommits: true })],
  '/streak': [query({ username: login, showCalendar: true })],
  '/activity': [query({ username: login })],
  '/languages': [query({ username: login, langsCount: 8 })],
  '/trophy': [query({ username: login, column: 4 })],
  '/repo': [query({ repo }), query({ repo: `${login}/${'Mw'.repeat(50)}` })],
  '/stars': [query({ repo })],
  '/views': [query({ username: login })],
  '/timeline': [query({ username: login, limit: 8 })],
  '/snake': [query({ username: login, title: filled(60) })],
  '/neofetch': [query({ username: login, title: filled(60) })],
  '/hours': [query({ username: login, title: filled(60) })],
};

/** Every row github-readme-stats' `show` adds. */
const allShowRows = 'reviews,prs_merged,prs_merged_percentage,discussions_started,discussions_answered';

/** The drop-in URLs of the projects readme-cards replaces, with their own options at their limits. */
const dropInUrls = [
  `/api?${query({ username: login, show_icons: true, custom_title: filled(100), card_width: 200, rank_icon: 'percentile' })}`,
  `/api?${query({ username: login, hide_rank: true, card_width: 1000, line_height: 40, include_all_commits: true })}`,
  ...['compact', 'normal', 'donut', 'donut-vertical', 'pie'].map(
    (layout) =>
      `/api/top-langs?${query({ username: login, layout, langs_count: 20, custom_title: filled(100) })}`,
  ),
  `/api/top-langs?${query({ username: login, layout: 'normal', langs_count: 20, stats_format: 'bytes', card_width: 100 })}`,
  `/api/pin?${query({ username: login, repo: hostileRepository, show_owner: true, description_lines_count: 3 })}`,
  `/badge/${encodeURIComponent(filled(80))}-${encodeURIComponent(words(80))}-blue?style=for-the-badge&logo=github`,
  `/ghpvc/?${query({ username: filled(100), label: filled(60), style: 'flat-square' })}`,
  `/icons?${query({ i: 'js,ts,py,go,rust,react,vue,docker,kubernetes,aws,gcp,azure', perline: 3 })}`,
  `/streak?${query({ user: login, card_width: 300, date_format: 'j M[ Y]', mode: 'weekly' })}`,
  `/trophy?${query({ username: login, column: 7, row: 3, 'margin-w': 0, 'margin-h': 0 })}`,
  `/typing?${query({ lines: `${filled(120)};${words(120)}`, size: 40, width: 200, height: 40, center: true, vCenter: true, multiline: true })}`,
  // Every optional row, 9-digit values written long, the translations with the longest labels,
  // the narrowest card width and each ring content.
  ...['ru', 'de', 'ja', 'pt-br'].flatMap((locale) => [
    `/api?${query({ username: login, locale, show: allShowRows, show_icons: true, card_width: 100, number_format: 'long', count_private: true, rank_icon: 'github' })}`,
    `/api?${query({ username: login, locale, show: allShowRows, include_all_commits: true, line_height: 16, rank_icon: 'percentile' })}`,
    ...['donut', 'donut-vertical', 'pie', 'compact', 'normal'].map(
      (layout) =>
        `/api/top-langs?${query({ username: login, locale, layout, langs_count: 20, card_width: 100 })}`,
    ),
    `/streak?${query({ user: login, locale, card_width: 300, mode: 'weekly', short_numbers: true, starting_year: 2020 })}`,
    `/streak?${query({ user: login, locale, card_width: 300, exclude_days: 'Sun,Mon,Tue,Wed,Thu,Fri,Sat', card_height: 400 })}`,
  ]),
  `/api?${query({ username: login, show: allShowRows, custom_title: words(100), card_width: 100, number_format: 'short' })}`,
  `/typing?${query({ lines: `${filled(120)};${words(120)};${filled(120, 'i')}`, weight: 900, font: 'Fira Code', random: true, size: 30 })}`,
];

interface TextBox {
  text: string;
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Texts closer than this (px) are not counted as touching: glyph boxes include the line gap. */
const overlapTolerance = 0.5;

type MeasuredCard = { width: number; height: number; boxes: TextBox[] };

/** `measureCards(svgs)`, defined in the page by measure-in-page.js. */
const measureScript = fileURLToPath(new URL('./measure-in-page.js', import.meta.url));

/** What is wrong with one card's layout, in words. */
function layoutProblems(card: MeasuredCard): string[] {
  const problems: string[] = [];
  const named = (box: TextBox) =>
    JSON.stringify(box.text.length > 40 ? `${box.text.slice(0, 40)}…` : box.text);
  for (const box of card.boxes) {
    if (
      box.left < -overlapTolerance ||
      box.top < -overlapTolerance ||
      box.right > card.width + overlapTolerance ||
      box.bottom > card.height + overlapTolerance
    )
      problems.push(
        `${named(box)} leaves the ${card.width}x${card.height} card (${box.left.toFixed(1)},${box.top.toFixed(1)} to ${box.right.toFixed(1)},${box.bottom.toFixed(1)})`,
      );
  }
  card.boxes.forEach((a, index) => {
    for (const b of card.boxes.slice(index + 1)) {
      // The same text drawn twice is a deliberate layer (a badge's shadow), not a collision.
      if (a.text === b.text) continue;
      const across = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const down = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (across > overlapTolerance && down > overlapTolerance)
        problems.push(`${named(a)} overlaps ${named(b)} by ${across.toFixed(1)}x${down.toFixed(1)} px`);
    }
  });
  return problems;
}

describe.runIf(browserTestsRun('layout collision tests'))('layout with hostile lengths, in Chromium', () => {
  let github: FakeGitHub;
  let browser: Browser;
  let page: Page;
  let app: ReturnType<typeof createApp>;

  beforeAll(async () => {
    github = await startFakeGitHub({ users: [hostileAccount] }, { now: () => FIXED_NOW });
    app = createApp({
      github: { apiUrl: github.url, tokens: ['layout-token'] },
      now: () => new Date(FIXED_NOW),
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    // The final frame of every animation is the layout that stays on screen.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ path: measureScript });
  });

  afterAll(async () => {
    await browser?.close();
    await github?.close();
  });

  it('has hostile cases for every card', () => {
    expect(endpoints.map((endpoint) => endpoint.path).filter((path) => !cases[path])).toEqual([]);
  });

  it('keeps every text inside its card and clear of the others, in every theme', async () => {
    const problems: string[] = [];
    for (const theme of themeNames) {
      const urls = [
        ...Object.entries(cases).flatMap(([path, queries]) => queries.map((search) => `${path}?${search}`)),
        ...dropInUrls,
      ].map((url) => `${url}${url.includes('?') ? '&' : '?'}theme=${theme}`);
      const svgs: string[] = [];
      for (const url of urls) {
        const response = await app.request(url);
        const body = await response.text();
        if (response.status !== 200)
          problems.push(`${url.slice(0, 80)}: status ${response.status} ${body.slice(0, 200)}`);
        svgs.push(body);
      }
      const measured = await page.evaluate(
        (markup) =>
          (globalThis as unknown as { measureCards(svgs: string[]): MeasuredCard[] }).measureCards(markup),
        svgs,
      );
      measured.forEach((card, index) => {
        for (const problem of layoutProblems(card)) problems.push(`${urls[index]!.slice(0, 60)}: ${problem}`);
      });
    }
    expect([...new Set(problems.map((problem) => problem.replace(/&theme=[\w-]+/, '')))]).toEqual([]);
  }, 300_000);
});
