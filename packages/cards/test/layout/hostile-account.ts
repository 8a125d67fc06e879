/**
 * @module A fake GitHub account at every limit GitHub allows: a 39-character login, 100-character
 * repository names, 9-digit counts (discussions and private commits too), 256-character titles, twenty languages with long names.
 */
import { FIXED_NOW } from '../fake-github/fixtures.mjs';

const DAY_MS = 86_400_000;

/** GitHub logins are at most 39 characters of [A-Za-z0-9-]; `m` and `w` are the widest. */
export const hostileLogin = 'mw'.repeat(19).concat('m');
/** Repository names are at most 100 characters. */
export const hostileRepository = 'W'.repeat(50).concat('-', 'm'.repeat(49));
const longWordRepository = 'Mw'.repeat(50);
const nineDigits = 999_999_999;
const longTitle = 'Refactor the '
  .concat('extraordinarily ', 'long '.repeat(40), 'title of a pull request')
  .slice(0, 256);

const languageNames = [
  'Microsoft Developer Studio Project',
  'Common Workflow Language',
  'Visual Basic .NET',
  'Jupyter Notebook',
  'Rich Text Format',
  'Graphviz (DOT)',
  'Protocol Buffer Text Format',
  'Wavefront Material',
  'Roff Manpage',
  'Unity3D Asset',
  'TypeScript',
  'JavaScript',
  'Objective-C++',
  "Ren'Py",
  'HTML+ERB',
  'Emacs Lisp',
  'Smalltalk',
  'PostScript',
  'ColdFusion CFC',
  'Standard ML',
];

/** A year of daily contributions summing to 9 digits, ending yesterday (current streak 365). */
function heavyCalendar(): Record<string, number> {
  const calendar: Record<string, number> = {};
  for (let day = 1; day <= 365; day++)
    calendar[new Date(FIXED_NOW - day * DAY_MS).toISOString().slice(0, 10)] = 2_739_726;
  return calendar;
}

function commitsAtEveryHour() {
  return Array.from({ length: 96 }, (_, index) => ({
    committedDate: new Date(FIXED_NOW - 30 * DAY_MS + index * 3_600_000 * 7).toISOString(),
    authorId: 'U_hostile',
  }));
}

export const hostileAccount = {
  id: 'U_hostile',
  login: hostileLogin,
  name: 'Wolfgang Maximilian Wilhelmina Mwangi-Montgomery-Whitworth the Magnificent',
  bio: 'W'.repeat(160),
  createdAt: '2021-04-10T00:00:00Z',
  followers: nineDigits,
  pullRequests: nineDigits,
  mergedPullRequests: 888_888_888,
  openIssues: 499_999_999,
  closedIssues: 499_999_999,
  reviews: nineDigits,
  discussionsStarted: nineDigits,
  discussionsAnswered: nineDigits,
  restrictedContributions: nineDigits,
  contributedTo: nineDigits,
  contributions: heavyCalendar(),
  repositories: [
    {
      name: hostileRepository,
      description: 'W'.repeat(350),
      stars: nineDigits,
      forks: nineDigits,
      license: {
        spdxId: 'LicenseRef-Very-Long',
        name: 'Creative Commons Attribution Non Commercial Share Alike 4.0',
      },
      languages: languageNames.map((name, index) => ({
        name,
        color: '#3178c6',
        size: 1_000_000 - index * 40_000,
      })),
      stargazers: Array.from({ length: 200 }, (_, index) =>
        new Date(FIXED_NOW - (200 - index) * DAY_MS).toISOString(),
      ),
      commits: commitsAtEveryHour(),
    },
    {
      name: longWordRepository,
      description: 'Mw '.repeat(100),
      stars: nineDigits,
      forks: nineDigits,
      languages: [{ name: 'Microsoft Developer Studio Project', color: null, size: 999_999_999 }],
    },
  ],
  events: [
    // The issue's case: fits the row in regular weight, not in the bold it is drawn in.
    {
      type: 'PushEvent',
      created_at: new Date(FIXED_NOW - 2 * DAY_MS).toISOString(),
      repo: { name: 'ada/pixel-garden-wwww' },
      payload: { size: 1, ref: 'refs/heads/main' },
    },
    {
      type: 'PushEvent',
      created_at: new Date(FIXED_NOW - 2 * DAY_MS).toISOString(),
      repo: { name: `${hostileLogin}/${hostileRepository}` },
      payload: { size: nineDigits, ref: `refs/heads/${'feature/'.repeat(20)}` },
    },
    {
      type: 'PullRequestEvent',
      created_at: new Date(FIXED_NOW - 3 * DAY_MS).toISOString(),
      repo: { name: `${hostileLogin}/${longWordRepository}` },
      payload: { action: 'closed', number: nineDigits, pull_request: { title: longTitle, merged: true } },
    },
    {
      type: 'IssuesEvent',
      created_at: new Date(FIXED_NOW - 400 * DAY_MS).toISOString(),
      repo: { name: `${hostileLogin}/${hostileRepository}` },
      payload: { action: 'reopened', issue: { number: nineDigits, title: 'W'.repeat(256) } },
    },
  ],
};
