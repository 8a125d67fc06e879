/**
 * @module Every GraphQL query the cards send to GitHub (validated against GitHub's schema in tests).
 */

/** Contribution years and account creation, so the streak knows which years to fetch. */
export const CONTRIBUTION_YEARS_QUERY = `query contributionYears($login: String!) {
  user(login: $login) {
    createdAt
    contributionsCollection { contributionYears }
  }
}`;

/** One calendar year of contributions (GitHub allows at most one year per collection). */
export const CONTRIBUTION_CALENDAR_QUERY = `query contributionCalendar($login: String!, $from: DateTime!, $to: DateTime!) {
  user(login: $login) {
    contributionsCollection(from: $from, to: $to) {
      totalCommitContributions
      restrictedContributionsCount
      contributionCalendar {
        totalContributions
        weeks { contributionDays { date contributionCount contributionLevel } }
      }
    }
  }
}`;

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
    openIssues: issues(states: OPEN) { totalCount }
    closedIssues: issues(states: CLOSED) { totalCount }
    repositories(first: 100, ownerAffiliations: OWNER, privacy: PUBLIC, orderBy: { field: STARGAZERS, direction: DESC }) {
      totalCount
      nodes { stargazerCount }
      pageInfo { hasNextPage endCursor }
    }
  }
}`;

/** Further pages of owned repositories by stars, until the stars run out. */
export const USER_STARS_PAGE_QUERY = `query userStarsPage($login: String!, $after: String) {
  user(login: $login) {
    repositories(first: 100, after: $after, ownerAffiliations: OWNER, privacy: PUBLIC, orderBy: { field: STARGAZERS, direction: DESC }) {
      nodes { stargazerCount }
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
  CONTRIBUTION_YEARS_QUERY,
  CONTRIBUTION_CALENDAR_QUERY,
  USER_STATS_QUERY,
  USER_STARS_PAGE_QUERY,
  USER_LANGUAGES_QUERY,
  REPOSITORY_QUERY,
  COMMIT_TIMES_QUERY,
  REPOSITORY_COMMITS_QUERY,
] as const;
