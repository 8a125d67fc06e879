/**
 * @module `theme=auto`: one SVG following the viewer's `prefers-color-scheme`, on
 * every card with a theme, with `light_theme` and `dark_theme` choosing the pair. Chromium
 * (emulated colour scheme) draws the light theme's background for light and the dark one's for
 * dark; resvg, which has no media queries, draws the light one.
 */
import { Resvg } from '@resvg/resvg-js';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderOnce } from '../../src/cards/render-memo.js';
import { githubCardCache } from '../../src/endpoints/github-params.js';
import { endpoints } from '../../src/endpoints/index.js';
import { galleryExamples } from '../../src/gallery/examples.js';
import { withAutoTheme } from '../../src/http/auto-theme.js';
import { defineEndpoint, type RenderContext } from '../../src/http/endpoint.js';
import { getTheme } from '../../src/index.js';
import { themeParam } from '../../src/params/index.js';
import { followColorScheme } from '../../src/svg/color-scheme.js';
import { svgDocument } from '../../src/svg/document.js';
import { browserTestsRun, launchChromium } from '../support/chromium.js';
import { okCard, textsOf, useGitHubTestBed } from '../support/github-app.js';
import { type RunningBin, startBin } from '../support/server.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();

const card = (path: string) => okCard(bed(), path);

/** `#rrggbb` as Chromium's computed `rgb(r, g, b)`. */
function rgb(hex: string): string {
  const value = Number.parseInt(hex.slice(1), 16);
  return `rgb(${value >> 16}, ${(value >> 8) & 255}, ${value & 255})`;
}

/** The colour resvg draws at (6, 6): inside every card's frame, before any content. */
function resvgPixel(svg: string): string {
  const image = new Resvg(svg).render();
  const at = (6 * image.width + 6) * 4;
  const [r, g, b] = image.pixels.subarray(at, at + 3);
  return `rgb(${r}, ${g}, ${b})`;
}

const themed = endpoints.filter((endpoint) => 'theme' in endpoint.params);

describe('theme=auto on every card with a theme', () => {
  it.each(themed.map((endpoint) => [endpoint.path]))(
    '%s answers one SVG with a dark-scheme rule',
    async (path) => {
      const example = galleryExamples[path]?.[0] ?? '';
      const query = new URLSearchParams(example);
      query.set('theme', 'auto');
      const svg = await card(`${path}?${query}`);
      expect(svg).toContain('@media (prefers-color-scheme:dark){');
      query.set('theme', 'coral');
      expect(svg).not.toBe(await card(`${path}?${query}`));
    },
  );

  it('answers 400 naming light_theme or dark_theme when one is not a theme', async () => {
    const response = await bed().app()('/stats?username=ada&theme=auto&dark_theme=nope');
    expect(response.status).toBe(400);
    expect(textsOf(response.body).join(' ')).toContain('dark_theme');
  });
});

describe('theme=auto on cards drawn once per data version', () => {
  it('answers the same merged card while both halves are the same, so its finished answer is kept', async () => {
    const data = {};
    const endpoint = withAutoTheme(
      defineEndpoint({
        path: '/drawn-once',
        summary: 'test card',
        cache: githubCardCache,
        pure: false,
        params: { theme: themeParam },
        render: ({ theme }) =>
          renderOnce(data, theme, () =>
            svgDocument({
              width: 10,
              height: 10,
              title: 'x',
              body: `<rect fill="${getTheme(theme).background}"/>`,
            }),
          ),
      }),
    );
    const run = async () => {
      const prepared = endpoint.prepare({ theme: 'auto' });
      if (!prepared.ok) throw new Error(prepared.message);
      return prepared.run({} as RenderContext);
    };
    const first = await run();
    expect(typeof first === 'string' ? first : first.svg).toContain('@media (prefers-color-scheme:dark){');
    expect(await run()).toBe(first);
  });
});

describe.runIf(browserTestsRun('theme=auto in Chromium'))('theme=auto in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** The computed fill of the card's first `<rect>` (its frame) in each colour scheme. */
  async function frameFill(svg: string, colorScheme: 'light' | 'dark'): Promise<string> {
    const page = await browser.newPage();
    try {
      await page.emulateMedia({ colorScheme });
      await page.setContent(`<!doctype html><body>${svg}</body>`);
      return await page.evaluate<string>("getComputedStyle(document.querySelector('svg rect')).fill");
    } finally {
      await page.close();
    }
  }

  const cards = [
    '/stats?username=ada',
    '/streak?username=ada',
    '/languages?username=ada',
    '/trophy?username=ada',
    '/api?username=ada&show_icons=true',
    '/api/top-langs?username=ada',
    '/streak?user=ada',
    '/banner?title=Hello',
  ];

  it.each(cards)(
    '%s: the background follows the scheme, light and dark from the default pair',
    async (path) => {
      const svg = await card(`${path}&theme=auto`);
      expect(await frameFill(svg, 'light')).toBe(rgb(getTheme('coral').background));
      expect(await frameFill(svg, 'dark')).toBe(rgb(getTheme('github-dark').background));
      expect(resvgPixel(svg)).toBe(resvgPixel(await card(`${path}&theme=coral`)));
    },
  );

  it('light_theme and dark_theme choose the pair', async () => {
    const svg = await card('/stats?username=ada&theme=auto&light_theme=coral&dark_theme=dracula');
    expect(await frameFill(svg, 'light')).toBe(rgb(getTheme('coral').background));
    expect(await frameFill(svg, 'dark')).toBe(rgb(getTheme('dracula').background));
    const other = await card('/stats?username=ada&theme=auto&light_theme=coral&dark_theme=nord');
    expect(await frameFill(other, 'dark')).toBe(rgb(getTheme('nord').background));
  });

  it("skill-icons' auto switches between their light and dark artwork", async () => {
    const svg = await card('/icons?i=aws,react&theme=auto');
    expect(await frameFill(svg, 'light')).toBe(rgb('#f4f2ed'));
    expect(await frameFill(svg, 'dark')).toBe(rgb('#242938'));
  });
});

describe.runIf(browserTestsRun('two drawings in Chromium'))('cards whose forms differ in shape', () => {
  it('shows one drawing per scheme, with ids kept apart', async () => {
    const light =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" role="img" aria-labelledby="title"><title id="title">x</title><defs><linearGradient id="g"/></defs><rect fill="url(#g)"/></svg>';
    const dark =
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" role="img" aria-labelledby="title"><title id="title">x</title><defs><linearGradient id="g"/></defs><circle r="4" fill="url(#g)"/></svg>';
    const svg = followColorScheme(light, dark);
    expectRenderableSvg(svg);
    expect(svg).toContain('<linearGradient id="dk-g"/></defs><circle r="4" fill="url(#dk-g)"/>');
    expect(svg.match(/<title/g)).toHaveLength(1);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      const shown = async (colorScheme: 'light' | 'dark') => {
        await page.emulateMedia({ colorScheme });
        await page.setContent(`<!doctype html><body>${svg}</body>`);
        return page.evaluate<string[]>(
          "[...document.querySelectorAll('svg > g')].map((group) => getComputedStyle(group).display)",
        );
      };
      expect(await shown('light')).toEqual(['inline', 'none']);
      expect(await shown('dark')).toEqual(['none', 'inline']);
    } finally {
      await browser.close();
    }
  });
});

describe('theme=auto through the bin', () => {
  let server: RunningBin;
  beforeAll(async () => {
    server = await startBin({ CARDS_STORE: ':memory:' });
  });
  afterAll(() => server?.stop());

  it('answers a query-only card with both schemes', async () => {
    const response = await fetch(`${server.url}/banner?title=Hello&theme=auto&dark_theme=nord`);
    expect(response.status).toBe(200);
    const svg = await response.text();
    expect(svg).toContain('@media (prefers-color-scheme:dark){');
    expect(svg).toContain(getTheme('nord').background);
  });
});
