/**
 * @module Turns fixture accounts into GraphQL values: objects whose fields are either plain data
 * or functions of the field arguments (graphql-js calls them), computed like GitHub does.
 */

export class FakeGraphQLError extends Error {
  /** @param {string} type GitHub's error type (NOT_FOUND, RATE_LIMITED...) @param {string} message */
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

const DAY_MS = 86_400_000;

/** GitHub's level of a day; the fake uses fixed thresholds instead of quartiles. */
function levelOf(count) {
  if (count === 0) return 'NONE';
  if (count <= 2) return 'FIRST_QUARTILE';
  if (count <= 5) return 'SECOND_QUARTILE';
  if (count <= 9) return 'THIRD_QUARTILE';
  return 'FOURTH_QUARTILE';
}

const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);

/** A cursor-paginated connection over `items` (cursor = index of the next item). */
function connection(items, { first = 100, after } = {}) {
  const start = after ? Number(after) : 0;
  const nodes = items.slice(start, start + first);
  const end = start + nodes.length;
  return {
    totalCount: items.length,
    nodes,
    edges: nodes.map((node) => ({ node })),
    pageInfo: { hasNextPage: end < items.length, endCursor: nodes.length > 0 ? String(end) : null },
  };
}

/** Weeks already built, per contribution map and range (the fake must answer fast under load). */
const builtWeeks = new WeakMap();

/** The calendar weeks (Sunday first) from `start` to `end`. */
function calendarWeeks(user, start, end) {
  const byRange = builtWeeks.get(user.contributions) ?? new Map();
  builtWeeks.set(user.contributions, byRange);
  const known = byRange.get(`${start}-${end}`);
  if (known) return known;
  const weeks = [];
  let week = [];
  for (let time = Date.parse(`${isoDay(start)}T00:00:00Z`); time <= end; time += DAY_MS) {
    const date = isoDay(time);
    const weekday = new Date(time).getUTCDay();
    if (weekday === 0 && week.length > 0) {
      weeks.push({ contributionDays: week });
      week = [];
    }
    const count = user.contributions[date] ?? 0;
    week.push({ date, weekday, contributionCount: count, contributionLevel: levelOf(count), color: '#000' });
  }
  if (week.length > 0) weeks.push({ contributionDays: week });
  byRange.set(`${start}-${end}`, weeks);
  return weeks;
}

function contributionsCollection(user, now, { from, to } = {}) {
  const end = to ? Date.parse(to) : now;
  const start = from ? Date.parse(from) : end - 365 * DAY_MS;
  // ISO dates compare as strings; fields are computed only when asked for (a request may hold
  // one aliased collection per year, most needing neither the year list nor the totals).
  const first = isoDay(start);
  const last = isoDay(end);
  const total = () =>
    Object.entries(user.contributions).reduce(
      (sum, [date, count]) => (date >= first && date <= last ? sum + count : sum),
      0,
    );
  return {
    // Like GitHub, every year with a contribution, backdated ones (before the account) included.
    contributionYears: () =>
      [...new Set(Object.keys(user.contributions).map((date) => Number(date.slice(0, 4))))].sort(
        (a, b) => b - a,
      ),
    totalCommitContributions: total,
    restrictedContributionsCount: user.restrictedContributions ?? 0,
    totalPullRequestReviewContributions: user.reviews,
    // Built only when asked for: most queries need the totals alone.
    contributionCalendar: () => ({
      totalContributions: total(),
      weeks: calendarWeeks(user, start, end),
      colors: [],
      isHalloween: false,
    }),
    // The user's own repositories with commits, then others' (`contributedRepositories`, each
    // with its `owner`); `contributions` counts the user's commits in the range.
    commitContributionsByRepository: ({ maxRepositories = 25 }) =>
      [
        ...user.repositories.map((repository) => ({ owner: user, repository })),
        ...(user.contributedRepositories ?? []).map((repository) => ({
          owner: { login: repository.owner },
          repository,
        })),
      ]
        .filter(({ repository }) => (repository.commits ?? []).length > 0)
        .sort((a, b) => b.repository.commits.length - a.repository.commits.length)
        .slice(0, maxRepositories)
        .map(({ owner, repository }) => ({
          repository: repositoryValue(owner, repository),
          contributions: {
            totalCount: repository.commits.filter(
              (commit) =>
                commit.authorId === user.id &&
                commit.committedDate.slice(0, 10) >= first &&
                commit.committedDate.slice(0, 10) <= last,
            ).length,
          },
        })),
  };
}

/** @param {{login: string}} owner @param {object} repository */
function repositoryValue(owner, repository) {
  return {
    name: repository.name,
    nameWithOwner: `${owner.login}/${repository.name}`,
    description: repository.description ?? null,
    stargazerCount: repository.stars,
    forkCount: repository.forks ?? 0,
    isArchived: repository.isArchived ?? false,
    isTemplate: repository.isTemplate ?? false,
    isFork: repository.isFork ?? false,
    primaryLanguage: repository.languages?.[0]
      ? { name: repository.languages[0].name, color: repository.languages[0].color }
      : null,
    licenseInfo: repository.license ?? null,
    languages: (args) => {
      const sorted = [...(repository.languages ?? [])].sort((a, b) => b.size - a.size);
      const page = connection(sorted, args);
      return { ...page, edges: page.nodes.map(({ size, ...node }) => ({ size, node })) };
    },
    defaultBranchRef: {
      target: {
        __typename: 'Commit',
        history: ({ first = 100, author, since }) => ({
          nodes: (repository.commits ?? [])
            .filter((commit) => !author?.id || commit.authorId === author.id)
            .filter((commit) => !since || Date.parse(commit.committedDate) >= Date.parse(since))
            .slice(0, first),
        }),
      },
    },
  };
}

function userValue(user, now) {
  const owned = user.repositories;
  return {
    id: user.id,
    login: user.login,
    name: user.name,
    bio: user.bio,
    createdAt: user.createdAt,
    followers: { totalCount: user.followers },
    contributionsCollection: (args) => contributionsCollection(user, now(), args),
    repositoriesContributedTo: { totalCount: user.contributedTo },
    pullRequests: ({ states }) => ({
      totalCount:
        states?.includes('MERGED') && states.length === 1 ? user.mergedPullRequests : user.pullRequests,
    }),
    repositoryDiscussions: { totalCount: user.discussionsStarted ?? 0 },
    // The fake knows answers only: the cards ask for nothing else.
    repositoryDiscussionComments: ({ onlyAnswers }) => ({
      totalCount: onlyAnswers ? (user.discussionsAnswered ?? 0) : 0,
    }),
    issues: ({ states }) => ({
      totalCount: (states ?? ['OPEN', 'CLOSED']).reduce(
        (sum, state) =>
          sum + (state === 'OPEN' ? user.openIssues : state === 'CLOSED' ? user.closedIssues : 0),
        0,
      ),
    }),
    repositories: ({ first, after, isFork, orderBy }) => {
      let list = owned.filter(
        (repository) => isFork === undefined || isFork === null || (repository.isFork ?? false) === isFork,
      );
      if (orderBy?.field === 'STARGAZERS') list = [...list].sort((a, b) => b.stars - a.stars);
      return connection(
        list.map((repository) => repositoryValue(user, repository)),
        { first, after },
      );
    },
  };
}

/** The root value: `user(login)` and `repository(owner, name)` over the fixture accounts. */
export function rootValue(fixtures, now) {
  const find = (login) =>
    fixtures.users.find((user) => user.login.toLowerCase() === String(login).toLowerCase());
  return {
    user: ({ login }) => {
      const user = find(login);
      if (!user)
        throw new FakeGraphQLError('NOT_FOUND', `Could not resolve to a User with the login of '${login}'.`);
      return userValue(user, now);
    },
    repository: ({ owner, name }) => {
      const user = find(owner);
      const repository = user?.repositories.find(
        (item) => item.name.toLowerCase() === String(name).toLowerCase(),
      );
      if (!user || !repository) {
        throw new FakeGraphQLError(
          'NOT_FOUND',
          `Could not resolve to a Repository with the name '${owner}/${name}'.`,
        );
      }
      return repositoryValue(user, repository);
    },
  };
}
