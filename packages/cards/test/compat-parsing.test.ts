/**
 * @module The readers behind the drop-in URLs: shields' badge path escapes, colours and
 * gradients, PHP date formats, weekly and excluded-day streaks, theme names, the choice
 * between our query language and theirs, and random input never failing with a 500.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dateFormatter, readDateFormat } from '../src/compat/date-format.js';
import { withDialect } from '../src/compat/dialect.js';
import { readClamped, readFlag, readHexColor } from '../src/compat/lenient.js';
import { readBackground } from '../src/compat/palette.js';
import { parseBadgePath } from '../src/compat/shields-badge.js';
import { foreignTheme, foreignThemeTable } from '../src/compat/themes.js';
import { defineEndpoint } from '../src/http/endpoint.js';
import { flag, requiredText, themeNames } from '../src/index.js';
import { computeStreaks } from '../src/insights/streak.js';
import { text } from '../src/params/index.js';
import { useGitHubTestBed } from './support/github-app.js';
import { expectRenderableSvg } from './support/svg.js';

describe('shields badge path', () => {
  it.each([
    ['build-passing-brightgreen', { label: 'build', message: 'passing', color: 'brightgreen' }],
    ['any_text-you_like-blue', { label: 'any text', message: 'you like', color: 'blue' }],
    ['a--b-c__d-red', { label: 'a-b', message: 'c_d', color: 'red' }],
    ['just the message-8A2BE2', { label: '', message: 'just the message', color: '8A2BE2' }],
    ['License-MIT-yellow.svg', { label: 'License', message: 'MIT', color: 'yellow' }],
    ['-left-red', { label: '', message: 'left', color: 'red' }],
    ['one-two-three-four-blue', { label: 'one-two-three', message: 'four', color: 'blue' }],
    ['___-x', { label: '', message: '_ ', color: 'x' }],
  ])('%s', (path, expected) => {
    expect(parseBadgePath(path)).toEqual(expected);
  });

  it('ignores an empty or oversized path', () => {
    expect(parseBadgePath('')).toBeUndefined();
    expect(parseBadgePath('a-'.repeat(400))).toBeUndefined();
  });
});

describe('colours and gradients', () => {
  it('reads hex colours with or without #, in 3, 4, 6 or 8 digits', () => {
    expect(readHexColor('fff')).toBe('#fff');
    expect(readHexColor('%23fff')).toBeUndefined();
    expect(readHexColor('#00FF00')).toBe('#00ff00');
    expect(readHexColor('233D6D00')).toBe('#233d6d00');
    expect(readHexColor('red')).toBeUndefined();
    expect(readHexColor('12345')).toBeUndefined();
  });

  it('reads a colour or an angle,color1,color2 gradient', () => {
    expect(readBackground('151515')).toEqual({ color: '#151515' });
    expect(readBackground('30,e96443,904e95')).toEqual({
      gradient: { angle: 30, colors: ['#e96443', '#904e95'] },
    });
    expect(readBackground('400,f00,0f0,00f')).toEqual({
      gradient: { angle: 40, colors: ['#f00', '#0f0', '#00f'] },
    });
    for (const bad of ['30,e96443', 'x,f00,0f0', '30,f00,nope', 'nope'])
      expect(readBackground(bad)).toBeUndefined();
  });

  it('reads lenient flags and clamps numbers', () => {
    expect([readFlag('true'), readFlag('1'), readFlag('FALSE'), readFlag('maybe')]).toEqual([
      true,
      true,
      false,
      undefined,
    ]);
    expect([
      readClamped('7', 1, 4),
      readClamped('-3', 1, 4),
      readClamped('2.6', 1, 4),
      readClamped('1e3', 1, 4),
    ]).toEqual([4, 1, 3, undefined]);
  });
});

describe('date_format', () => {
  it('writes PHP date letters; the bracketed part only outside the current year', () => {
    const format = (pattern: string, date: string) => dateFormatter(readDateFormat(pattern)!, 2024)(date);
    expect(format('M j[, Y]', '2024-03-05')).toBe('Mar 5');
    expect(format('M j[, Y]', '2023-03-05')).toBe('Mar 5, 2023');
    expect(format('[Y.]n.j', '2022-12-28')).toBe('2022.12.28');
    expect(format('j/n[/Y]', '2024-12-28')).toBe('28/12');
    expect(format('D d F y', '2024-03-10')).toBe('Sun 10 March 24');
  });

  it('ignores formats with other letters or unbalanced brackets', () => {
    for (const bad of ['M j <script>', '[[Y]]', 'Y]', 'x'.repeat(30), 'H:i'])
      expect(readDateFormat(bad)).toBeUndefined();
  });
});

describe('streak options', () => {
  const days = (entries: Record<string, number>) =>
    Object.entries(entries).map(([date, count]) => ({ date, count }));
  // 2024-03-01 is a Friday: Sat 2 and Sun 3 are empty.
  const weekdaysOnly = days({
    '2024-02-28': 1,
    '2024-02-29': 1,
    '2024-03-01': 1,
    '2024-03-02': 0,
    '2024-03-03': 0,
    '2024-03-04': 1,
    '2024-03-05': 1,
  });

  it('exclude_days keeps a streak running over excluded empty days', () => {
    expect(computeStreaks(weekdaysOnly, '2024-03-05').current.length).toBe(2);
    const excluded = computeStreaks(weekdaysOnly, '2024-03-05', { excludedWeekdays: new Set([0, 6]) });
    expect(excluded.current).toEqual({ start: '2024-02-28', end: '2024-03-05', length: 7 });
    expect(excluded.total).toBe(5);
  });

  it('weekly mode counts Sunday-to-Saturday weeks with a contribution', () => {
    const weeks = days({ '2024-02-14': 2, '2024-02-20': 1, '2024-02-29': 1, '2024-03-12': 3 });
    const summary = computeStreaks(weeks, '2024-03-14', { weekly: true });
    // Weeks of Feb 11, Feb 18 and Feb 25 in a row; Mar 3 is empty; Mar 10 is this week.
    expect(summary.longest).toEqual({ start: '2024-02-11', end: '2024-02-25', length: 3 });
    expect(summary.current).toEqual({ start: '2024-03-10', end: '2024-03-10', length: 1 });
    expect(summary.total).toBe(7);
  });
});

describe('theme names', () => {
  it('maps every listed name onto one of our 20 themes', () => {
    for (const ours of Object.values(foreignThemeTable)) expect(themeNames).toContain(ours);
  });

  it('lists every mapping in the README table', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [theirs, ours] of Object.entries(foreignThemeTable)) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${ours}\` |`));
      expect(row, ours).toContain(`\`${theirs}\``);
    }
  });

  it('reads their spellings and falls back to the project default', () => {
    expect(foreignTheme('tokyonight', 'transparent')).toBe('tokyo-night');
    expect(foreignTheme('GitHub_Dark', 'transparent')).toBe('github-dark');
    expect(foreignTheme('radical', 'transparent')).toBe('radical');
    expect(foreignTheme('no-such-theme', 'coral')).toBe('coral');
    expect(foreignTheme(null, 'coral')).toBe('coral');
  });
});

describe('one path, two query languages', () => {
  const ours = defineEndpoint({
    path: '/x',
    summary: 'ours',
    cache: { kind: 'no-store' },
    pure: true,
    params: {
      username: requiredText({ description: 'u', max: 10 }),
      strict: flag({ description: 's', default: false }),
    },
    render: () => 'ours',
  });
  const theirs = defineEndpoint({
    path: '/x',
    summary: 'theirs',
    cache: { kind: 'no-store' },
    pure: true,
    params: {
      username: text({ description: 'u', max: 10, default: '' }),
      strict: text({ description: 'wider', max: 10, default: '' }),
      'their-only': text({ description: 't', max: 10, default: '' }),
    },
    render: () => 'theirs',
  });
  const both = withDialect(ours, { endpoint: theirs, widerNames: ['strict'] });
  const answer = async (query: Record<string, string>) => {
    const prepared = both.prepare(query);
    return prepared.ok ? await prepared.run({} as never) : `400 ${prepared.message}`;
  };

  it('reads a query as ours unless it is clearly theirs', async () => {
    expect(await answer({ username: 'a' })).toBe('ours');
    expect(await answer({ username: 'a', 'their-only': '1' })).toBe('theirs');
    // A shared parameter with a value only theirs accepts.
    expect(await answer({ username: 'a', strict: 'wide' })).toBe('theirs');
    // Not when the query also names something unknown to them, nor when it is invalid for both.
    expect(await answer({ username: 'a', strict: 'wide', other: '1' })).toMatch(/^400 strict/);
    expect(await answer({ username: 'a', strict: 'true' })).toBe('ours');
  });
});

describe('random drop-in queries', () => {
  const bed = useGitHubTestBed();
  const value = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.constantFrom(
      '',
      'true',
      '-1',
      '0',
      '99999',
      '30,e96443,904e95',
      'fff',
      'dark',
      'ada',
      'engine',
      ';;',
      '%',
      '[Y',
      '__proto__',
      'constructor',
    ),
  );
  const routes: Record<string, readonly string[]> = {
    '/api': ['username', 'hide', 'show', 'theme', 'bg_color', 'card_width', 'number_format', 'custom_title'],
    '/api/top-langs': ['username', 'langs_count', 'layout', 'hide', 'bg_color'],
    '/api/pin': ['username', 'repo', 'show_owner', 'description_lines_count'],
    '/streak': ['user', 'date_format', 'mode', 'exclude_days', 'background', 'card_width'],
    '/trophy': ['username', 'column', 'row', 'margin-w', 'title', 'rank', 'theme'],
    '/typing': ['lines', 'font', 'size', 'separator', 'letterSpacing', 'width', 'duration'],
    '/icons': ['i', 'perline', 'theme'],
    '/ghpvc/': ['username', 'label', 'color', 'style', 'base'],
    '/badge/a-b-c': ['style', 'logo', 'labelColor', 'label'],
  };

  it('answers 200, 400 or 404 with a card that renders, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(routes)),
        fc.array(fc.option(value), { minLength: 8, maxLength: 8 }),
        async (path, values) => {
          const query = new URLSearchParams();
          routes[path]!.forEach((name, index) => {
            const given = values[index];
            if (given !== null && given !== undefined) query.set(name, given);
          });
          // Without a username, `/api` is the gallery page.
          if (path === '/api' && !query.has('username')) query.set('username', 'ada');
          const response = await bed().app()(`${path}?${query}`);
          expect([200, 400, 404], `${path}?${query}`).toContain(response.status);
          expectRenderableSvg(response.body);
        },
      ),
      { numRuns: 150 },
    );
  }, 120_000);

  it("never reads Object's own members as table entries (__proto__, constructor, toString)", async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      for (const path of [
        `/icons?i=${name}`,
        `/icons?i=react,${name}&theme=${name}`,
        `/api?username=ada&theme=${name}`,
        `/badge/a-b-${name}?style=${name}&logo=${name}`,
        `/ghpvc/?username=ada&color=${name}&style=${name}`,
        `/streak?user=ada&theme=${name}`,
        `/trophy?username=ada&theme=${name}&title=${name}`,
      ]) {
        const response = await bed().app()(path);
        expect([200, 400, 404], path).toContain(response.status);
        expectRenderableSvg(response.body);
      }
    }
  });
});
