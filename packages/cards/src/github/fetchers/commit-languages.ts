/**
 * @module Languages by what the user wrote: each repository the user committed to in the last
 * year (their own, organisations', other people's; a fork counts only when they committed to
 * it) adds its language mix weighted by the user's commits there.
 */
import { z } from 'zod';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';
import { COMMIT_LANGUAGES_QUERY } from '../queries.js';
import type { LanguageSize } from './languages.js';

/** As the byte shares: a year of commits moves slowly. */
const COMMIT_LANGUAGES_TTL_MS = 6 * HOUR_MS;
const FALLBACK_COLOR = '#8b949e';

const commitLanguagesSchema = z.object({
  user: z.object({
    contributionsCollection: z.object({
      commitContributionsByRepository: z.array(
        z.object({
          contributions: z.object({ totalCount: z.number().int().nonnegative() }),
          repository: z.object({
            languages: z
              .object({
                edges: z.array(
                  z
                    .object({
                      size: z.number().int().nonnegative(),
                      node: z.object({ name: z.string(), color: z.string().nullable() }),
                    })
                    .nullable(),
                ),
              })
              .nullable(),
          }),
        }),
      ),
    }),
  }),
});

/**
 * Per language, the sum over repositories of (the user's commits there) x (the language's
 * share of that repository's bytes), in `bytes` so the shares are drawn as for byte sizes;
 * largest first.
 */
export function fetchCommitLanguageSizes(context: FetchContext, login: string): Promise<LanguageSize[]> {
  return context.cache.get<LanguageSize[]>({
    key: `commit-languages:${keyPart(login)}`,
    ttlMs: COMMIT_LANGUAGES_TTL_MS,
    async load() {
      const raw: unknown = await context.client.graphql(COMMIT_LANGUAGES_QUERY, { login }, `user "${login}"`);
      const byRepository =
        commitLanguagesSchema.parse(raw).user.contributionsCollection.commitContributionsByRepository;
      const totals = new Map<string, LanguageSize>();
      for (const { contributions, repository } of byRepository) {
        const edges = (repository.languages?.edges ?? []).flatMap((edge) => (edge === null ? [] : [edge]));
        const repositoryBytes = edges.reduce((sum, edge) => sum + edge.size, 0);
        if (contributions.totalCount === 0 || repositoryBytes === 0) continue;
        for (const { size, node } of edges) {
          const known = totals.get(node.name) ?? {
            name: node.name,
            color: node.color ?? FALLBACK_COLOR,
            bytes: 0,
            repositories: 0,
          };
          known.bytes += (contributions.totalCount * size) / repositoryBytes;
          known.repositories += 1;
          totals.set(node.name, known);
        }
      }
      const data = [...totals.values()].sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
      return { data };
    },
  });
}
