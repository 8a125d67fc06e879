/**
 * @module Fixture accounts of the fake GitHub. The numbers the tests expect are worked out by hand
 * in the comments here, never taken from the code under test.
 */

/** The fake's "now": Friday 15 March 2024, 12:00 UTC (2024 is a leap year). */
export const FIXED_NOW = Date.parse('2024-03-15T12:00:00Z');

const HOUR_MS = 3_600_000;

/** `count` timestamps starting at `start`, `stepHours` apart. */
function stars(start, count, stepHours) {
  return Array.from({ length: count }, (_, index) =>
    new Date(Date.parse(start) + index * stepHours * HOUR_MS).toISOString(),
  );
}

/**
 * ada: streaks by hand.
 * - 2022-12-28 .. 2023-01-02: 6 days across the year boundary (longest).
 * - 2024-02-27 .. 2024-03-02: 5 days through 29 February.
 * - 2024-03-10 .. 2024-03-14: 5 days, today (03-15) empty: current streak 5.
 * Totals: 2022 = 5, 2023 = 8 (4+1+3), 2024 = 15 (1+2+5+1+1 + 5x1); all = 28.
 * Commits of the last year (2023-03-16 .. 2024-03-15): 3 + 15 = 18.
 * Stars: 120 + 30 + 7 + 0 = 157 (forks count). Languages (no forks): TypeScript 80,000,
 * Python 30,000, CSS 10,000, Shell 5,000 of 125,000 bytes = 64 %, 24 %, 8 %, 4 %.
 */
const ada = {
  id: 'U_ada',
  login: 'ada',
  name: 'Ada Lovelace',
  bio: 'Poetical scientist',
  createdAt: '2022-05-01T10:00:00Z',
  followers: 12,
  pullRequests: 30,
  mergedPullRequests: 20,
  openIssues: 3,
  closedIssues: 7,
  reviews: 4,
  contributedTo: 5,
  contributions: {
    '2022-12-28': 1,
    '2022-12-29': 1,
    '2022-12-30': 2,
    '2022-12-31': 1,
    '2023-01-01': 4,
    '2023-01-02': 1,
    '2023-06-10': 3,
    '2024-02-27': 1,
    '2024-02-28': 2,
    '2024-02-29': 5,
    '2024-03-01': 1,
    '2024-03-02': 1,
    '2024-03-10': 1,
    '2024-03-11': 1,
    '2024-03-12': 1,
    '2024-03-13': 1,
    '2024-03-14': 1,
  },
  repositories: [
    {
      name: 'engine',
      description: 'Analytical engine & <notes>',
      stars: 120,
      forks: 10,
      license: { spdxId: 'MIT', name: 'MIT License' },
      languages: [
        { name: 'TypeScript', color: '#3178c6', size: 60_000 },
        { name: 'CSS', color: '#663399', size: 10_000 },
      ],
      // 100 stars on 1-5 June 2023, then 20 from 1 March 2024: 20 in the last 30 days.
      stargazers: [...stars('2023-06-01T00:00:00Z', 100, 1), ...stars('2024-03-01T00:00:00Z', 20, 1)],
      // UTC hours 9, 9, 9, 14, 23 by ada (peak 9 UTC, 4 in New York in January), one by someone else.
      commits: [
        { committedDate: '2024-01-10T09:15:00Z', authorId: 'U_ada' },
        { committedDate: '2024-01-11T09:40:00Z', authorId: 'U_ada' },
        { committedDate: '2024-01-12T09:55:00Z', authorId: 'U_ada' },
        { committedDate: '2024-01-12T14:05:00Z', authorId: 'U_ada' },
        { committedDate: '2024-01-13T23:30:00Z', authorId: 'U_ada' },
        { committedDate: '2024-01-13T03:00:00Z', authorId: 'U_other' },
      ],
    },
    {
      name: 'notes',
      description: 'Notes on the engine',
      stars: 30,
      isArchived: true,
      license: null,
      languages: [
        { name: 'Python', color: '#3572A5', size: 30_000 },
        { name: 'TypeScript', color: '#3178c6', size: 20_000 },
      ],
    },
    {
      name: 'forked-lib',
      stars: 7,
      isFork: true,
      languages: [{ name: 'C', color: '#555555', size: 1_000_000 }],
    },
    {
      name: 'template-kit',
      stars: 0,
      isTemplate: true,
      languages: [{ name: 'Shell', color: null, size: 5_000 }],
    },
  ],
  events: [
    {
      type: 'WatchEvent',
      created_at: '2024-03-14T11:00:00Z',
      repo: { name: 'grace/galaxy' },
      payload: { action: 'started' },
    },
    {
      type: 'PushEvent',
      created_at: '2024-03-14T10:00:00Z',
      repo: { name: 'ada/engine' },
      payload: { size: 3, ref: 'refs/heads/main' },
    },
    {
      type: 'PullRequestEvent',
      created_at: '2024-03-13T09:00:00Z',
      repo: { name: 'ada/engine' },
      payload: { action: 'opened', number: 7, pull_request: { title: 'Add gears', merged: false } },
    },
    {
      type: 'IssuesEvent',
      created_at: '2024-03-12T08:00:00Z',
      repo: { name: 'ada/notes' },
      payload: { action: 'closed', issue: { number: 3, title: 'Broken lever' } },
    },
    {
      type: 'PullRequestEvent',
      created_at: '2024-03-11T07:00:00Z',
      repo: { name: 'ada/engine' },
      payload: { action: 'closed', number: 6, pull_request: { title: 'Fix <cogs>', merged: true } },
    },
  ],
};

/** A deterministic pseudo-random stream (mulberry32), so generated calendars never change. */
function random(seed) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** A busy calendar from 2015 to the fake's today, for the snake, the activity graph and benchmarks. */
function busyCalendar() {
  const next = random(42);
  const calendar = {};
  for (let time = Date.parse('2015-02-01T00:00:00Z'); time <= FIXED_NOW; time += 24 * HOUR_MS) {
    const roll = next();
    if (roll > 0.35) calendar[new Date(time).toISOString().slice(0, 10)] = Math.ceil((roll - 0.35) * 20);
  }
  return calendar;
}

/** grace: a long, busy account with a repository past the sampling threshold (2,500 stars, 25 pages). */
const grace = {
  id: 'U_grace',
  login: 'grace',
  name: 'Grace Hopper',
  bio: 'Compilers, and a moth',
  createdAt: '2015-01-20T08:00:00Z',
  followers: 1_500,
  pullRequests: 640,
  mergedPullRequests: 600,
  openIssues: 40,
  closedIssues: 300,
  reviews: 120,
  contributedTo: 60,
  contributions: busyCalendar(),
  repositories: [
    {
      name: 'galaxy',
      description: 'A compiler for the stars',
      stars: 2_500,
      forks: 300,
      license: { spdxId: 'Apache-2.0', name: 'Apache License 2.0' },
      languages: [
        { name: 'Go', color: '#00ADD8', size: 900_000 },
        { name: 'Rust', color: '#dea584', size: 300_000 },
      ],
      stargazers: stars('2020-01-01T00:00:00Z', 2_500, 6),
      commits: Array.from({ length: 60 }, (_, index) => ({
        committedDate: new Date(Date.parse('2023-10-01T00:00:00Z') + index * 29 * HOUR_MS).toISOString(),
        authorId: 'U_grace',
      })),
    },
    // Malformed upstream data: a stargazer whose date is a number.
    { name: 'odd-data', stars: 1, stargazers: [42] },
    {
      name: 'cobol',
      description: 'Common business-oriented language',
      stars: 800,
      languages: [
        { name: 'COBOL', color: null, size: 200_000 },
        { name: 'Assembly', color: '#6E4C13', size: 50_000 },
      ],
    },
  ],
  events: ada.events.map((event) => ({
    ...event,
    repo: { name: event.repo.name.replace('ada/', 'grace/') },
  })),
};

/** octocat: the account the gallery and the README examples use (GitHub's own demo account). */
const octocat = {
  ...grace,
  id: 'U_octocat',
  login: 'octocat',
  name: 'The Octocat',
  bio: 'GitHub mascot and demo account',
  createdAt: '2011-01-25T18:44:36Z',
  followers: 9_000,
  repositories: [
    {
      name: 'Spoon-Knife',
      description: 'This repo is for demonstration purposes only.',
      stars: 12_000,
      forks: 140_000,
      languages: [
        { name: 'HTML', color: '#e34c26', size: 1_300 },
        { name: 'CSS', color: '#663399', size: 1_100 },
      ],
    },
    {
      name: 'Hello-World',
      description: 'My first repository on GitHub!',
      stars: 2_900,
      forks: 2_700,
      license: { spdxId: 'MIT', name: 'MIT License' },
      languages: [{ name: 'Go', color: '#00ADD8', size: 4_000 }],
      stargazers: stars('2011-01-26T00:00:00Z', 2_900, 36),
      commits: grace.repositories[0].commits.map((commit) => ({ ...commit, authorId: 'U_octocat' })),
    },
    {
      name: 'linguist',
      stars: 400,
      isFork: true,
      languages: [{ name: 'Ruby', color: '#701516', size: 90_000 }],
    },
  ],
  events: ada.events.map((event) => ({
    ...event,
    repo: { name: event.repo.name.replace('ada/', 'octocat/') },
  })),
};

/**
 * babbage: an account from 2019 whose imported history has a commit backdated to 1999, and who
 * shows private contributions on the profile: GitHub counts 7 private commits in every collection
 * asked for, so public commits of the last year are 4 (03-13, 03-14), 11 with the private ones.
 * Discussions: 6 started, 2 comments marked as the answer. Merged pull requests: 20 of 30.
 */
const babbage = {
  ...ada,
  restrictedContributions: 7,
  discussionsStarted: 6,
  discussionsAnswered: 2,
  id: 'U_babbage',
  login: 'babbage',
  name: 'Charles Babbage',
  bio: 'Difference engines',
  createdAt: '2019-03-01T09:00:00Z',
  contributions: {
    '1999-07-04': 2,
    '2024-03-13': 1,
    '2024-03-14': 3,
  },
  events: [],
};

/** `count` commits by `authorId`, one a day from `start` (ISO date). */
function commitsBy(authorId, start, count) {
  return Array.from({ length: count }, (_, day) => ({
    committedDate: new Date(Date.parse(`${start}T12:00:00Z`) + day * 86_400_000).toISOString(),
    authorId,
  }));
}

/**
 * lin: languages by what she wrote (weight=commits). Own `tool` (TypeScript 9,000, CSS 1,000
 * bytes; 2 commits), a fork `big-fork` never committed to (Go 100,000), and 8 commits in the
 * last year to `acme/engine` (Rust 5,000, C 5,000), plus 5 to it in 2022 (outside the year).
 * By bytes (own, no forks): TypeScript 90 %, CSS 10 %. By commits: Rust 40 %, C 40 %,
 * TypeScript 18 %, CSS 2 %.
 */
const lin = {
  ...ada,
  id: 'U_lin',
  login: 'lin',
  name: 'Lin',
  events: [],
  repositories: [
    {
      name: 'tool',
      stars: 3,
      languages: [
        { name: 'TypeScript', color: '#3178c6', size: 9_000 },
        { name: 'CSS', color: '#663399', size: 1_000 },
      ],
      commits: commitsBy('U_lin', '2024-01-01', 2),
    },
    {
      name: 'big-fork',
      stars: 0,
      isFork: true,
      languages: [{ name: 'Go', color: '#00add8', size: 100_000 }],
    },
  ],
  contributedRepositories: [
    {
      owner: 'acme',
      name: 'engine',
      stars: 50,
      languages: [
        { name: 'Rust', color: '#dea584', size: 5_000 },
        { name: 'C', color: '#555555', size: 5_000 },
      ],
      commits: [...commitsBy('U_lin', '2023-09-01', 8), ...commitsBy('U_lin', '2022-01-01', 5)],
    },
  ],
};

export const fixtures = { users: [ada, grace, octocat, babbage, lin] };
