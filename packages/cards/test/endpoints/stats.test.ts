/**
 * @module /stats, /trophy, /views and /neofetch against the fake GitHub: every number shown is
 * the one worked out by hand from the fixtures.
 */
import { describe, expect, it } from 'vitest';
import { fixtures } from '../fake-github/fixtures.mjs';
import { textsOf, useGitHubTestBed } from '../support/github-app.js';
import { expectRenderableSvg } from '../support/svg.js';

const bed = useGitHubTestBed();

describe('/stats', () => {
  it('shows the counters and the grade', async () => {
    const response = await bed().app()('/stats?username=ada&showIcons=true');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe(
      'public, max-age=1800, s-maxage=1800, stale-while-revalidate=86400',
    );
    expectRenderableSvg(response.body);
    const texts = textsOf(response.body);
    expect(texts[0]).toBe("Ada Lovelace's GitHub Stats");
    // Stars 120 + 30 + 7 + 0; commits of the last year 3 + 15; PRs 30; issues 3 + 7; contributed to 5.
    expect(texts).toEqual(
      expect.arrayContaining([
        'Total Stars Earned:',
        '157',
        'Total Commits (last year):',
        '18',
        '30',
        '10',
        '5',
      ]),
    );
    // Rank by hand: weighted CDFs 2x0.0487 + 3x0.3402 + 0.2421 + 0.75 + 4x0.7585 + 0.5455 = 5.69 of 12,
    // percentile 52.6 -> B (<= 62.5).
    expect(texts).toContain('B');
    expect(texts).toContain('top 53%');
  });

  it('counts every year with allCommits and hides the ring with rank=false', async () => {
    const texts = textsOf((await bed().app()('/api/stats?username=ada&allCommits=1&rank=false')).body);
    expect(texts).toContain('Total Commits (all time):');
    expect(texts).toContain('28');
    expect(texts).not.toContain('B');
  });

  it('answers the same under /api', async () => {
    const app = bed().app();
    expect((await app('/api/stats?username=ada')).body).toBe((await app('/stats?username=ada')).body);
  });

  it('rejects a bad username with 400', async () => {
    const response = await bed().app()('/stats?username=-bad-');
    expect(response.status).toBe(400);
    expect(textsOf(response.body).join(' ')).toContain('username');
    expect((await bed().app()('/stats')).status).toBe(400);
    expect((await bed().app()('/stats?username=ada&rank=maybe')).status).toBe(400);
  });
});

describe('/trophy', () => {
  it('gives each trophy its tier', async () => {
    const response = await bed().app()('/trophy?username=ada&column=2');
    expect(response.status).toBe(200);
    const { width } = expectRenderableSvg(response.body);
    expect(width).toBe(2 * 110 + 6 + 2);
    const texts = textsOf(response.body);
    // stars 157 -> AAA, all-time commits 28 -> B, followers 12 -> B, PRs 30 -> A, issues 10 -> B, repos 4 -> C.
    const tiers = texts.filter((text) => /^(SSS|SS|S|AAA|AA|A|B|C|\?)$/.test(text));
    expect(tiers).toEqual(['AAA', 'B', 'B', 'A', 'B', 'C']);
  });

  it('accepts column 1-4 and noFrame', async () => {
    expect((await bed().app()('/trophy?username=ada&column=4&noFrame=true')).status).toBe(200);
    // With a parameter only we use the query is ours: column stays 1-4. (Without one, column=5
    // is a github-profile-trophy URL and draws; see compat-urls.test.ts.)
    expect((await bed().app()('/trophy?username=ada&column=0&noFrame=false')).status).toBe(400);
    expect((await bed().app()('/trophy?username=ada&column=5&noFrame=false')).status).toBe(400);
  });
});

describe('long names', () => {
  it('end with an ellipsis instead of stretching /stats and /views', async () => {
    const ada = fixtures.users.find((user) => (user as { login: string }).login === 'ada') as {
      name: string;
    };
    const original = ada.name;
    ada.name =
      'Augusta Ada King, Countess of Lovelace, née Byron, Enchantress of Numbers and Poetical Scientist';
    try {
      const stats = await bed().app()('/stats?username=ada');
      expect(expectRenderableSvg(stats.body).width).toBeLessThan(520);
      expect(textsOf(stats.body)[0]).toMatch(/^Augusta Ada King.*…'s GitHub Stats$/);
      const views = await bed().app()('/views?username=ada');
      expect(expectRenderableSvg(views.body).width).toBe(450);
      expect(textsOf(views.body)[0]).toMatch(/…$/);
      // The accessible name keeps the whole name.
      expect(views.body).toContain('<title id="title">Augusta Ada King, Countess of Lovelace, née Byron');
    } finally {
      ada.name = original;
    }
  });
});

describe('/views', () => {
  it('shows bio, followers, repositories and the documented score', async () => {
    const response = await bed().app()('/views?username=ada');
    expectRenderableSvg(response.body);
    const texts = textsOf(response.body);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Ada Lovelace (@ada)',
        'Poetical scientist',
        '12 followers',
        '4 repositories',
        '33',
      ]),
    );
  });
});

describe('/neofetch', () => {
  it('prints the facts with the default title', async () => {
    const response = await bed().app()('/neofetch?username=ada');
    expectRenderableSvg(response.body);
    const texts = textsOf(response.body);
    expect(texts).toContain('ada@github');
    expect(texts).toEqual(
      expect.arrayContaining([
        'Repos:',
        '4',
        'Stars:',
        '157',
        'Followers:',
        '12',
        '1 year, 10 months, 14 days',
        'TypeScript, Python, CSS',
      ]),
    );
  });

  it('takes a custom title, escaped', async () => {
    const response = await bed().app()('/neofetch?username=ada&title=%3Cscript%3Ex');
    expect(response.body).not.toContain('<script');
    expect(textsOf(response.body)).toContain('<script>x');
  });
});
