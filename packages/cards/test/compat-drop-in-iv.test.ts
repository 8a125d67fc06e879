/**
 * @module Users' URLs of the replaced projects that still went wrong: each check
 * fails on the code before the fix.
 */
import { describe, expect, it } from 'vitest';
import { okCard, textsOf, useGitHubTestBed } from './support/github-app.js';

const bed = useGitHubTestBed();

const card = (path: string) => okCard(bed(), path);

describe('github-readme-streak-stats timezone', () => {
  it('counts "today" in the zone given, as their README documents', async () => {
    // 12:00 UTC on 15 March is 02:00 on the 16th at UTC+14: the empty 15th breaks the streak.
    const utc = textsOf(await card('/streak?user=ada'));
    expect(utc[3]).toBe('5');
    const kolkata = textsOf(await card('/streak?user=ada&timezone=Asia/Kolkata'));
    expect(kolkata[3]).toBe('5');
    const kiritimati = textsOf(await card('/streak?user=ada&timezone=Pacific/Kiritimati&theme=dark'));
    expect(kiritimati[3]).toBe('0');
    expect(kiritimati[5]).toBe('No streak');
  });

  it('answers 400 naming the parameter for a zone that does not exist', async () => {
    const response = await bed().app()('/streak?user=ada&timezone=Mars/Base');
    expect(response.status).toBe(400);
    expect(response.body).toContain('timezone');
  });
});

describe('skill-icons ids with their own artwork', () => {
  const cellsOf = (svg: string) => svg.match(/<g transform="translate\(\d+ \d+\)">/g) ?? [];

  it('draws all 6 of aws,gcp,azure,react,vue,flutter, as their row is laid out', async () => {
    const svg = await card('/icons?i=aws,gcp,azure,react,vue,flutter');
    expect(cellsOf(svg)).toHaveLength(6);
    // 6 cells of 300 units less their 44-unit gap, scaled so an icon is 48 px.
    expect(svg).toMatch(/^<svg [^>]*width="329.25" height="48"/);
    expect(svg).toMatch(/<title id="title">Skills: aws, [^,]+, azure, React, Vue.js, Flutter</);
    const threePerLine = await card('/icons?i=aws,gcp,azure,react,vue,flutter&perline=3');
    expect(threePerLine).toMatch(/^<svg [^>]*width="160.5" height="104.25"/);
  });

  it('theme=light draws the -light variant of icons that have one, and the only form of the others', async () => {
    const dark = await card('/icons?i=aws');
    const light = await card('/icons?i=aws&theme=light');
    expect(dark).toContain('fill="#242938"');
    expect(light).not.toContain('fill="#242938"');
    expect(light).toContain('fill="#f4f2ed"');
    // A single-form icon is the same in both themes.
    const single = (svg: string) => svg.slice(svg.indexOf('<g transform'));
    expect(single(await card('/icons?i=c&theme=light'))).toBe(single(await card('/icons?i=c')));
  });

  it('serves every id of their set (i=all), and their short names', async () => {
    const all = await card('/icons?i=all');
    expect(cellsOf(all).length).toBeGreaterThanOrEqual(237);
    expect(cellsOf(await card('/icons?i=js,ts,py,k8s,gql,rxjs,sklearn,googlecloud'))).toHaveLength(8);
  });

  it('keeps ids of two icons apart in one SVG', async () => {
    const svg = await card('/icons?i=aws,gcp,azure,react,vue,flutter,docker,kubernetes');
    const ids = [...svg.matchAll(/ id="([^"]+)"/g)].map((match) => match[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('github-readme-stats parameters with their visible effect', () => {
  it('text_bold=false draws the stats rows in regular weight (bold by default, as theirs)', async () => {
    const bold = await card('/api?username=ada');
    const regular = await card('/api?username=ada&text_bold=false');
    const rowWeights = (svg: string) =>
      [...svg.matchAll(/<text [^>]*>(Total Stars Earned:|[\d,.]+k?)<\/text>/g)].map((match) =>
        match[0].includes('font-weight="bold"'),
      );
    expect(rowWeights(bold).length).toBeGreaterThan(1);
    expect(new Set(rowWeights(bold))).toEqual(new Set([true]));
    expect(new Set(rowWeights(regular))).toEqual(new Set([false]));
  });

  it('top-langs stats_format=bytes writes each language as its size instead of its share', async () => {
    const shares = textsOf(await card('/api/top-langs?username=ada'));
    const bytes = textsOf(await card('/api/top-langs?username=ada&stats_format=bytes'));
    expect(shares.some((text) => /\d+\.\d%$/.test(text))).toBe(true);
    expect(bytes.some((text) => /\d+\.\d%$/.test(text))).toBe(false);
    expect(bytes.some((text) => /\d+\.\d (B|KB|MB|GB)$/.test(text))).toBe(true);
  });
});

describe('github-readme-stats stats card: exclude_repo and commits_year', () => {
  const rowValue = (svg: string, label: string) => {
    const texts = textsOf(svg);
    return texts[texts.indexOf(label) + 1];
  };

  it('exclude_repo takes those repositories (any case) out of the stars total, as theirs', async () => {
    // ada owns engine (120 stars), notes (30) and a repository of 7.
    expect(rowValue(await card('/api?username=ada'), 'Total Stars Earned:')).toBe('157');
    const without = await card('/api?username=ada&exclude_repo=Engine,notes');
    expect(rowValue(without, 'Total Stars Earned:')).toBe('7');
    expect(rowValue(await card('/api?username=ada&exclude_repo=nothing'), 'Total Stars Earned:')).toBe('157');
  });

  it('commits_year counts the commits of that year and says so in the label', async () => {
    const year = await card('/api?username=ada&commits_year=2023');
    // ada's 2023: 4 + 1 + 3 commits.
    expect(rowValue(year, 'Total Commits (2023):')).toBe('8');
    expect(textsOf(year)).not.toContain('Total Commits (last year):');
    expect(rowValue(await card('/api?username=ada&commits_year=2022'), 'Total Commits (2022):')).toBe('5');
    // Every year's commits win, as theirs.
    expect(textsOf(await card('/api?username=ada&commits_year=2023&include_all_commits=true'))).not.toContain(
      'Total Commits (2023):',
    );
  });

  it('answers 400 naming commits_year for a year that is none', async () => {
    for (const bad of ['20x4', '1969', '3000', '24']) {
      const response = await bed().app()(`/api?username=ada&commits_year=${bad}`);
      expect(response.status, bad).toBe(400);
      expect(response.body).toContain('commits_year');
    }
  });
});

describe('github-readme-stats commits_year on the app clock', () => {
  it("bounds commits_year by the current year of the app's clock, not the machine's", async () => {
    // The test bed's clock is 15 March 2024.
    expect((await bed().app()('/api?username=ada&commits_year=2024')).status).toBe(200);
    const response = await bed().app()('/api?username=ada&commits_year=2025');
    expect(response.status).toBe(400);
    expect(textsOf(response.body).join(' ')).toContain('commits_year must be a year from 1970 to 2024');
  });
});

describe('github-readme-stats top-langs layout', () => {
  const progressBars = (svg: string) => svg.match(/<rect class="language-progress" [^>]*>/g) ?? [];

  it('normal (their default) draws one row per language: name, its own progress bar, its share', async () => {
    const normal = await card('/api/top-langs?username=ada&layout=normal');
    expect(await card('/api/top-langs?username=ada')).toBe(normal);
    // ada: TypeScript 80,000, Python 30,000, CSS 10,000, Shell 5,000 bytes.
    const bars = progressBars(normal);
    expect(bars).toHaveLength(4);
    expect(bars[0]).toContain('fill="#3178c6"');
    const widths = bars.map((bar) => Number(/width="([\d.]+)"/.exec(bar)?.[1]));
    expect(widths[0]! / widths[1]!).toBeCloseTo(80 / 30, 1);
    const texts = textsOf(normal);
    // Each name, then its share written apart (right of its bar), in their order.
    expect(texts).toEqual(expect.arrayContaining(['TypeScript', '64.0%', 'Python', '24.0%', 'CSS', 'Shell']));
    expect(texts.indexOf('64.0%')).toBe(texts.indexOf('TypeScript') + 1);
    expect(normal).toMatch(/<text [^>]*text-anchor="end"[^>]*>64\.0%<\/text>/);
    expect(normal).not.toContain('clip-path="url(#bar)"');
  });

  it('compact draws one stacked bar with a legend, so it differs from normal', async () => {
    const compact = await card('/api/top-langs?username=ada&layout=compact');
    expect(progressBars(compact)).toHaveLength(0);
    expect(compact).toContain('clip-path="url(#bar)"');
    expect(textsOf(compact)).toContain('TypeScript 64.0%');
  });

  it('normal writes sizes with stats_format=bytes, and hide_progress gives the names as theirs', async () => {
    const bytes = textsOf(await card('/api/top-langs?username=ada&layout=normal&stats_format=bytes'));
    expect(bytes[bytes.indexOf('TypeScript') + 1]).toBe('78.1 KB');
    const names = await card('/api/top-langs?username=ada&hide_progress=true');
    expect(progressBars(names)).toHaveLength(0);
    expect(textsOf(names)).toContain('TypeScript');
  });
});
