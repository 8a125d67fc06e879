/**
 * @module /languages, /hours and /timeline against the fake GitHub.
 */
import { describe, expect, it } from 'vitest';
import { textsOf, useGitHubTestBed } from '../support/github-app.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();

describe('/languages', () => {
  it('shows byte shares over non-fork repositories', async () => {
    const response = await bed().app()('/languages?username=ada');
    expectRenderableSvg(response.body);
    // 80,000 / 30,000 / 10,000 / 5,000 of 125,000 bytes; the fork's 1 MB of C is not counted.
    expect(textsOf(response.body)).toEqual([
      'Most Used Languages',
      'TypeScript 64.0%',
      'Python 24.0%',
      'CSS 8.0%',
      'Shell 4.0%',
    ]);
    expect(response.body).toContain('fill="#3178c6"');
  });

  it('keeps langsCount languages and shows the rest as other', async () => {
    const texts = textsOf((await bed().app()('/languages?username=ada&langsCount=2')).body);
    expect(texts).toEqual(['Most Used Languages', 'TypeScript 64.0%', 'Python 24.0%', 'Other 12.0%']);
    expect((await bed().app()('/languages?username=ada&langsCount=9')).status).toBe(400);
    expect((await bed().app()('/languages?username=ada&langsCount=0')).status).toBe(400);
  });
});

describe('/hours', () => {
  it('finds the peak hour in UTC and in a time zone', async () => {
    const utc = textsOf((await bed().app()('/hours?username=ada')).body);
    // ada's own commits at 09:15, 09:40, 09:55, 14:05, 23:30 UTC (the 03:00 commit is someone else's).
    expect(utc).toEqual(['Commit hours', '0', '6', '12', '18', '09:00', 'peak', '5 commits · UTC']);
    const newYork = await bed().app()(
      '/hours?username=ada&timezone=America/New_York&title=When+I+code&color=%23ff0000',
    );
    expectRenderableSvg(newYork.body);
    expect(textsOf(newYork.body)).toEqual([
      'When I code',
      '0',
      '6',
      '12',
      '18',
      '04:00',
      'peak',
      '5 commits · America/New_York',
    ]);
    expect(newYork.body).toContain('stroke="#ff0000"');
  });
});

describe('/timeline', () => {
  it('lists push, pull request and issue events, newest first, with relative times', async () => {
    const response = await bed().app()('/timeline?username=ada&limit=8');
    expectRenderableSvg(response.body);
    expect(textsOf(response.body)).toEqual([
      'Recent activity',
      'pushed 3 commits to main in ada/engine',
      'yesterday',
      'opened PR #7 in ada/engine',
      '2 days ago',
      'Add gears',
      'closed issue #3 in ada/notes',
      '3 days ago',
      'Broken lever',
      'merged PR #6 in ada/engine',
      '4 days ago',
      'Fix <cogs>',
    ]);
    expect(response.headers.get('cache-control')).toContain('max-age=600');
  });

  it('honours limit', async () => {
    const texts = textsOf((await bed().app()('/timeline?username=ada&limit=1')).body);
    expect(texts).toEqual(['Recent activity', 'pushed 3 commits to main in ada/engine', 'yesterday']);
    expect((await bed().app()('/timeline?username=ada&limit=9')).status).toBe(400);
  });
});
