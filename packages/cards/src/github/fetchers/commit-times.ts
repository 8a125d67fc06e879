/**
 * @module Committed times of the user's own commits over the last year, from the default branch
 * of the repositories they committed to most.
 */
import { z } from 'zod';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';
import { COMMIT_TIMES_QUERY, REPOSITORY_COMMITS_QUERY } from '../queries.js';

/** Hour-of-day habits change slowly; this is also the most expensive card to fetch. */
const COMMIT_TIMES_TTL_MS = 6 * HOUR_MS;
/** Ten repositories (100 commits each) give a stable dial at ten points of rate limit. */
const MAX_REPOSITORIES = 10;
const YEAR_MS = 365 * 24 * HOUR_MS;

const repositoriesSchema = z.object({
  user: z.object({
    id: z.string(),
    contributionsCollection: z.object({
      commitContributionsByRepository: z.array(
        z.object({ repository: z.object({ nameWithOwner: z.string() }) }),
      ),
    }),
  }),
});

const historySchema = z.object({
  repository: z
    .object({
      defaultBranchRef: z
        .object({
          target: z
            .object({
              history: z
                .object({ nodes: z.array(z.object({ committedDate: z.string() }).nullable()) })
                .optional(),
            })
            .nullable(),
        })
        .nullable(),
    })
    .nullable(),
});

/** Epoch ms of each commit (UTC instants; the card converts them to the requested time zone). */
export function fetchCommitTimes(context: FetchContext, login: string): Promise<number[]> {
  const subject = `user "${login}"`;
  return context.cache.get<number[]>({
    key: `commit-times:${keyPart(login)}`,
    ttlMs: COMMIT_TIMES_TTL_MS,
    async load() {
      const user = repositoriesSchema.parse(
        await context.client.graphql(COMMIT_TIMES_QUERY, { login }, subject),
      ).user;
      const since = new Date(context.now() - YEAR_MS).toISOString();
      const repositories = user.contributionsCollection.commitContributionsByRepository.slice(
        0,
        MAX_REPOSITORIES,
      );
      const histories = await Promise.all(
        repositories.map(async ({ repository }) => {
          const [owner = '', name = ''] = repository.nameWithOwner.split('/');
          const raw = await context.client.graphql(
            REPOSITORY_COMMITS_QUERY,
            { owner, name, author: user.id, since },
            `repository "${repository.nameWithOwner}"`,
          );
          const nodes = historySchema.parse(raw).repository?.defaultBranchRef?.target?.history?.nodes ?? [];
          return nodes.flatMap((node) => (node === null ? [] : [Date.parse(node.committedDate)]));
        }),
      );
      return { data: histories.flat().filter(Number.isFinite) };
    },
  });
}
