/**
 * @module Renders the README screenshots of the GitHub cards: each card is drawn by the built
 * service from the fake GitHub's octocat account and rasterised to PNG with resvg.
 * Run after a build: `node docs/render-github-cards.mjs`.
 */
import { writeFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import { createApp } from '../dist/index.js';
import { FIXED_NOW, fixtures } from '../test/fake-github/fixtures.mjs';
import { startFakeGitHub } from '../test/fake-github/server.mjs';

const shots = {
  stats: '/stats?username=octocat&showIcons=true',
  streak: '/streak?username=octocat&showCalendar=true',
  activity: '/activity?username=octocat',
  languages: '/languages?username=octocat',
  trophy: '/trophy?username=octocat',
  repo: '/repo?repo=octocat/Spoon-Knife',
  stars: '/stars?repo=octocat/Hello-World',
  views: '/views?username=octocat',
  timeline: '/timeline?username=octocat&limit=4',
  snake: '/snake?username=octocat&title=octocat',
  neofetch: '/neofetch?username=octocat',
  hours: '/hours?username=octocat&timezone=Europe/Paris',
};

const github = await startFakeGitHub(fixtures, { now: () => FIXED_NOW });
try {
  const app = createApp({ github: { apiUrl: github.url, tokens: ['docs'] }, now: () => new Date(FIXED_NOW) });
  for (const [name, path] of Object.entries(shots)) {
    const response = await app.request(path);
    if (response.status !== 200) throw new Error(`${path}: HTTP ${response.status}`);
    const png = new Resvg(await response.text(), {
      font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
      background: '#ffffff00',
    })
      .render()
      .asPng();
    writeFileSync(new URL(`github-${name}.png`, import.meta.url), png);
    console.log(`docs/github-${name}.png ${png.length} B`);
  }
} finally {
  await github.close();
}
