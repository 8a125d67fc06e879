/**
 * @module github-profile-trophy drop-in: `/trophy?username=...` (the old service answered at
 * the root of its host) with `column`, `row`, `margin-w`, `margin-h`, `no-bg`, `no-frame`,
 * `title` and `rank` filters and its theme names.
 */
import { renderTrophy } from '../cards/trophy.js';
import { githubCardCache, usernameParam } from '../endpoints/github-params.js';
import { forCard, gitHubDataFor } from '../github/for-services.js';
import { defineEndpoint } from '../http/endpoint.js';
import { type TrophyKind, trophiesFor } from '../insights/trophies.js';
import { getTheme } from '../themes/index.js';
import { lenient, lenientFlag, lenientList, lenientNumber, lenientText, readClamped } from './lenient.js';
import { foreignTheme } from './themes.js';

/** Their trophy titles for the trophies we draw (their secret and other trophies: ignored). */
const kindsByTitle: Readonly<Record<string, TrophyKind>> = {
  stars: 'stars',
  commits: 'commits',
  followers: 'followers',
  pullrequest: 'pullRequests',
  pullrequests: 'pullRequests',
  issues: 'issues',
  repositories: 'repositories',
};

/** Their panel grid: at most 8 columns; `column=-1` fits every trophy in one row. */
const maxColumns = 8;
const defaultColumns = 6;
const defaultRows = 3;

export const profileTrophyCard = defineEndpoint({
  path: '/trophy',
  summary: 'github-profile-trophy drop-in.',
  cache: githubCardCache,
  pure: false,
  params: {
    username: usernameParam,
    theme: lenientText('Theme name of github-profile-trophy, mapped to the closest of ours.', 40),
    column: lenient<number | null>(
      'Trophies per row (-1: all in one row).',
      (raw) => (raw === '-1' ? -1 : readClamped(raw, 1, maxColumns)),
      null,
    ),
    row: lenientNumber('Most rows.', 1, 10),
    'margin-w': lenientNumber('Space between panels across, px.', 0, 100),
    'margin-h': lenientNumber('Space between panels down, px.', 0, 100),
    'no-bg': lenientFlag('Panels without background.', false),
    'no-frame': lenientFlag('Trophies without panels.', false),
    title: lenientList('Only these trophies, e.g. `Stars,Followers`.'),
    rank: lenientList('Only these ranks, e.g. `S,AAA`.'),
  },
  async render(values, { services }) {
    const data = gitHubDataFor(services);
    const [stats, contributions] = await forCard(
      Promise.all([data.userStats(values.username), data.contributions(values.username)]),
    );
    const titles = filterOf(values.title.map((title) => title.toLowerCase()));
    const ranks = filterOf(values.rank.map((rank) => rank.toUpperCase()));
    const trophies = trophiesFor({
      stars: stats.stars,
      commits: contributions.years.reduce((sum, year) => sum + year.commits, 0),
      followers: stats.followers,
      pullRequests: stats.pullRequests,
      issues: stats.issues,
      repositories: stats.publicRepositories,
    }).filter(
      (trophy) =>
        titles(Object.keys(kindsByTitle).filter((title) => kindsByTitle[title] === trophy.kind)) &&
        ranks(trophy.tier === null ? [] : [trophy.tier]),
    );
    const wanted = values.column === -1 ? trophies.length : (values.column ?? defaultColumns);
    const columns = Math.max(1, Math.min(wanted, trophies.length));
    return renderTrophy({
      login: stats.login,
      trophies: trophies.slice(0, columns * (values.row ?? defaultRows)),
      columns,
      noFrame: values['no-frame'],
      noBackground: values['no-bg'],
      gapX: values['margin-w'] ?? undefined,
      gapY: values['margin-h'] ?? undefined,
      // Their default theme, flat, is a light one.
      theme: getTheme(foreignTheme(values.theme, 'transparent')),
    });
  },
});

/**
 * Their `title` and `rank` lists: names keep only those, `-name` leaves one out. The filter
 * says whether an item known by any of `names` stays.
 */
function filterOf(list: readonly string[]): (names: readonly string[]) => boolean {
  const excluded = new Set(list.filter((item) => item.startsWith('-')).map((item) => item.slice(1)));
  const included = new Set(list.filter((item) => !item.startsWith('-')));
  return (names) =>
    !names.some((name) => excluded.has(name)) &&
    (included.size === 0 || names.some((name) => included.has(name)));
}
