/**
 * @module /streak, /activity and /snake against the fake GitHub: streaks and totals worked out by
 * hand (see the fixtures), time zones, and the snake's size and animation.
 */
import { describe, expect, it } from 'vitest';
import { textsOf, useGitHubTestBed } from '../support/github-app.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();

describe('/streak', () => {
  it('shows total, current and longest streaks with their dates', async () => {
    const response = await bed().app()('/streak?username=ada');
    expect(response.status).toBe(200);
    expectRenderableSvg(response.body);
    const texts = textsOf(response.body);
    expect(texts).toEqual([
      '28',
      'Total Contributions',
      '28 Dec 2022 – Present',
      '5',
      'Current Streak',
      '10 Mar 2024 – 14 Mar 2024',
      '6',
      'Longest Streak',
      '28 Dec 2022 – 2 Jan 2023',
    ]);
    // Every year (2022, 2023, 2024 among 2008 .. 2024) in one request.
    expect(bed().fake.count('contributionCalendars')).toBe(1);
  });

  it('uses the reader time zone for today', async () => {
    // 12:00 UTC on 15 March is already 02:00 on the 16th at UTC+14: the empty 15th breaks the streak.
    const texts = textsOf((await bed().app()('/streak?username=ada&timezone=Pacific/Kiritimati')).body);
    expect(texts[3]).toBe('0');
    expect(texts[5]).toBe('No streak');
    expect((await bed().app()('/streak?username=ada&timezone=Mars/Base')).status).toBe(400);
  });

  it('adds the calendar with showCalendar', async () => {
    const response = await bed().app()('/streak?username=ada&showCalendar=true&hideBorder=1');
    const { height } = expectRenderableSvg(response.body);
    expect(height).toBeGreaterThan(190);
    // 20 weeks, the last one up to Friday 15 March: 19 x 7 + 6 cells.
    expect(response.body.match(/<rect x="[\d.]+" y="\d+" width="11"/g)).toHaveLength(19 * 7 + 6);
  });
});

describe('/activity', () => {
  it('draws 53 weeks with labels and a legend', async () => {
    const response = await bed().app()('/activity?username=ada');
    expectRenderableSvg(response.body);
    const texts = textsOf(response.body);
    // Last 365 days (2023-03-16 .. 2024-03-15): 3 + 15.
    expect(texts[0]).toBe('18 contributions in the last year');
    expect(texts).toEqual(expect.arrayContaining(['Mon', 'Wed', 'Fri', 'Less', 'More', 'Apr']));
    expect(response.body.match(/<title>\d+ on \d{4}-\d{2}-\d{2}<\/title>/g)).toHaveLength(52 * 7 + 6);
    expect(response.body).toContain('<title>5 on 2024-02-29</title>');
  });

  it('hides legend and labels on request', async () => {
    const texts = textsOf((await bed().app()('/activity?username=ada&hideLegend=true&hideLabels=true')).body);
    expect(texts).toEqual(['18 contributions in the last year']);
  });
});

describe('/snake', () => {
  it('animates a full busy year in pure CSS under 200 KB', async () => {
    const response = await bed().app()('/snake?username=grace&duration=12');
    expect(response.status).toBe(200);
    expectRenderableSvg(response.body);
    expect(Buffer.byteLength(response.body)).toBeLessThan(200_000);
    expect(response.body).not.toMatch(/<script|<animate|<set|javascript:/i);
    expect(response.body).toContain('@keyframes s{');
    expect(response.body).toContain('prefers-reduced-motion');
    expect(response.body).toContain('.s{animation:s 12s linear infinite}');
  });

  it('takes a hex colour, title and hide_border, and rejects anything else as colour', async () => {
    const response = await bed().app()(
      '/snake?username=ada&color=ff8800&title=Eat+my+commits&hide_border=true',
    );
    expect(response.body).toContain('fill="#ff8800"');
    expect(textsOf(response.body)).toContain('Eat my commits');
    expect((await bed().app()('/snake?username=ada&color=red;x:y')).status).toBe(400);
    expect((await bed().app()('/snake?username=ada&duration=2')).status).toBe(400);
    expect((await bed().app()('/snake?username=ada&duration=30')).status).toBe(200);
  });
});
