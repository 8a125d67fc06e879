/**
 * @module Account counters behind /stats, /trophy, /views and /neofetch, with stars summed over
 * every owned public repository (not just the first 100).
 */
import { z } from 'zod';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';
import { USER_STARS_PAGE_QUERY, USER_STATS_QUERY } from '../queries.js';

const STATS_TTL_MS = 2 * HOUR_MS;
/** Ten pages (1,000 repositories by stars) covers every real account's starred repositories. */
const MAX_STAR_PAGES = 10;

const count = z.object({ totalCount: z.number().int().nonnegative() });
const starsPage = z.object({
  nodes: z.array(z.object({ name: z.string(), stargazerCount: z.number().int().nonnegative() }).nullable()),
  pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
});

const statsSchema = z.object({
  user: z.object({
    login: z.string(),
    name: z.string().nullable(),
    bio: z.string().nullable(),
    createdAt: z.string(),
    followers: count,
    contributionsCollection: z.object({
      totalCommitContributions: z.number().int(),
      restrictedContributionsCount: z.number().int(),
      totalPullRequestReviewContributions: z.number().int(),
    }),
    repositoriesContributedTo: count,
    pullRequests: count,
    mergedPullRequests: count,
    repositoryDiscussions: count,
    repositoryDiscussionComments: count,
    openIssues: count,
    closedIssues: count,
    repositories: starsPage.extend({ totalCount: z.number().int().nonnegative() }),
  }),
});

const starsPageSchema = z.object({ user: z.object({ repositories: starsPage }) });

export interface UserStats {
  login: string;
  name: string | null;
  bio: string | null;
  createdAt: string;
  followers: number;
  /** Commits of the last 12 months, private ones included when the user shows them. */
  commitsLastYear: number;
  /** The private part of `commitsLastYear` (GitHub's `restrictedContributionsCount`). */
  privateCommitsLastYear: number;
  reviews: number;
  pullRequests: number;
  mergedPullRequests: number;
  /** Discussions the account started, and its comments marked as an answer. */
  discussionsStarted: number;
  discussionsAnswered: number;
  issues: number;
  contributedTo: number;
  publicRepositories: number;
  stars: number;
  /**
   * Stars of each owned public repository that has any, with its name (what `exclude_repo`
   * takes out of `stars`).
   */
  repositoryStars: Array<{ name: string; stars: number }>;
}

type StarsPage = z.infer<typeof starsPage>;

/** Adds the page's repositories with stars to `each`; returns the page's sum. */
function sumStars(page: StarsPage, each: UserStats['repositoryStars']): number {
  let sum = 0;
  for (const node of page.nodes) {
    if (!node || node.stargazerCount === 0) continue;
    each.push({ name: node.name, stars: node.stargazerCount });
    sum += node.stargazerCount;
  }
  return sum;
}

/** Pages are sorted by stars: once a page ends at zero stars the rest are zero too. */
function needsNextPage(page: StarsPage): boolean {
  const last = page.nodes.at(-1);
  return page.pageInfo.hasNextPage && page.pageInfo.endCursor !== null && (last?.stargazerCount ?? 0) > 0;
}

export function fetchUserStats(context: FetchContext, login: string): Promise<UserStats> {
  const subject = `user "${login}"`;
  return context.cache.get<UserStats>({
    // v3: each repository's stars (v2: merged pull requests, discussions and the private
    // commits apart); entries of an older shape in a shared cache (Redis, the Cache API) lack
    // them, so they are not read.
    key: `stats:v3:${keyPart(login)}`,
    ttlMs: STATS_TTL_MS,
    async load() {
      const user = statsSchema.parse(await context.client.graphql(USER_STATS_QUERY, { login }, subject)).user;
      const repositoryStars: UserStats['repositoryStars'] = [];
      let stars = sumStars(user.repositories, repositoryStars);
      let page: StarsPage = user.repositories;
      for (let pages = 1; pages < MAX_STAR_PAGES && needsNextPage(page); pages += 1) {
        const raw = await context.client.graphql(
          USER_STARS_PAGE_QUERY,
          { login, after: page.pageInfo.endCursor },
          subject,
        );
        page = starsPageSchema.parse(raw).user.repositories;
        stars += sumStars(page, repositoryStars);
      }
      const collection = user.contributionsCollection;
      return {
        data: {
          login: user.login,
          name: user.name,
          bio: user.bio,
          createdAt: user.createdAt,
          followers: user.followers.totalCount,
          commitsLastYear: collection.totalCommitContributions + collection.restrictedContributionsCount,
          privateCommitsLastYear: collection.restrictedContributionsCount,
          reviews: collection.totalPullRequestReviewContributions,
          pullRequests: user.pullRequests.totalCount,
          mergedPullRequests: user.mergedPullRequests.totalCount,
          discussionsStarted: user.repositoryDiscussions.totalCount,
          discussionsAnswered: user.repositoryDiscussionComments.totalCount,
          issues: user.openIssues.totalCount + user.closedIssues.totalCount,
          contributedTo: user.repositoriesContributedTo.totalCount,
          publicRepositories: user.repositories.totalCount,
          stars,
          repositoryStars,
        },
      };
    },
  });
}
