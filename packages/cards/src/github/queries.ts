/**
 * @module Every GraphQL query the cards send to GitHub (validated against GitHub's schema in tests).
 */

/**
 * The account's creation date, its contribution years and the calendar of each of `years`, in
 * one request: one aliased collection per calendar year (`y2024`), since GitHub refuses a
 * collection spanning more than a year. The years are integers written into the query (no
 * user input reaches it); the login stays a variable.
 */
export function contributionCalendarsQuery(years: readonly number[]): string {
  const collections = years.map(
    (year) =>
      `    y${year}: contributionsCollection(from: "${year}-01-01T00:00:00Z", to: "${year}-12-31T23:59:59Z") { ...calendarYear }`,
  );
  return `query contributionCalendars($login: String!) {
  user(login: $login) {
    createdAt
    contributionsCollection { contributionYears }
${collections.join('\n')}
  }
}

fragment calendarYear on ContributionsCollection {
  totalCommitContributions
  restrictedContributionsCount
  contributionCalendar {
    totalContributions
    weeks { contributionDays { date contributionCount contributionLevel } }
  }
}`;
}

/** Counters behind /stats, /trophy, /views and /neofetch, plus one page of starred repositories. */
export const USER_STATS_QUERY = `query userStats($login: String!) {
  user(login: $login) {
    login
    name
    bio
    createdAt
    followers { totalCount }
    contributionsCollection {
      totalCommitContributions
      restrictedContributionsCount
      totalPullRequestReviewContributions
    }
    repositoriesContributedTo(first: 1, contributionTypes: [COMMIT, ISSUE, PULL_REQUEST, REPOSITORY]) {
      totalCount
    }
    pullRequests(first: 1) { totalCount }
    mergedPullRequests: pullRequests(states: MERGED) { totalCount }
    repositoryDiscussions { totalCount }
    repositoryDiscussionComments(onlyAnswers: true) { totalCount }
    openIssues: issues(states: OPEN) { totalCount }
    closedIssues: issues(states: CLOSED) { totalCount }
    repositories(first: 100, ownerAffiliations: OWNER, privacy: PUBLIC, orderBy: { field: STARGAZERS, direction: DESC }) {
      totalCount
      nodes { name stargazerCount }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** Further pages of owned repositories by stars, until the stars run out. */
export const USER_STARS_PAGE_QUERY = `query userStarsPage($login: String!, $after: String) {
  user(login: $login) {
    repositories(first: 100, after: $after, ownerAffiliations: OWNER, privacy: PUBLIC, orderBy: { field: STARGAZERS, direction: DESC }) {
      nodes { name stargazerCount }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** Language byte sizes of the public non-fork repositories the user owns. */
export const USER_LANGUAGES_QUERY = `query userLanguages($login: String!, $after: String) {
  user(login: $login) {
    repositories(first: 100, after: $after, ownerAffiliations: OWNER, isFork: false, privacy: PUBLIC) {
      nodes {
        name
        languages(first: 10, orderBy: { field: SIZE, direction: DESC }) {
          edges { size node { name color } }
        }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/**
 * Repositories the user committed to in the last year (theirs, organisations', other people's),
 * with the user's commit count and each one's languages: one request, about 1 point of
 * GraphQL rate limit (100 repositories x 10 languages).
 */
export const COMMIT_LANGUAGES_QUERY = `query commitLanguages($login: String!) {
  user(login: $login) {
    contributionsCollection {
      commitContributionsByRepository(maxRepositories: 100) {
        contributions { totalCount }
        repository {
          languages(first: 10, orderBy: { field: SIZE, direction: DESC }) {
            edges { size node { name color } }
          }
        }
      }
    }
  }
}`;

/** The fields of the /repo card. */
export const REPOSITORY_QUERY = `query repositoryCard($owner: String!, $name: String!) {
  repository(owner: $owner, name: $name) {
    nameWithOwner
    description
    stargazerCount
    forkCount
    isArchived
    isTemplate
    isFork
    primaryLanguage { name color }
    licenseInfo { spdxId name }
  }
}`;

/** Committed dates of the user's own recent commits in their most active repositories. */
export const COMMIT_TIMES_QUERY = `query commitTimes($login: String!) {
  user(login: $login) {
    id
    contributionsCollection {
      commitContributionsByRepository(maxRepositories: 25) {
        repository { nameWithOwner }
      }
    }
  }
}`;

/** One repository's default-branch history authored by the user. */
export const REPOSITORY_COMMITS_QUERY = `query repositoryCommits($owner: String!, $name: String!, $author: ID!, $since: GitTimestamp!) {
  repository(owner: $owner, name: $name) {
    defaultBranchRef {
      target {
        ... on Commit {
          history(first: 100, author: { id: $author }, since: $since) { nodes { committedDate } }
        }
      }
    }
  }
}`;

export const ALL_QUERIES = [
  USER_STATS_QUERY,
  USER_STARS_PAGE_QUERY,
  USER_LANGUAGES_QUERY,
  COMMIT_LANGUAGES_QUERY,
  REPOSITORY_QUERY,
  COMMIT_TIMES_QUERY,
  REPOSITORY_COMMITS_QUERY,
] as const;
