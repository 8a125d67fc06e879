/**
 * @module Languages by what the user wrote: each repository the user committed to in the last
 * year (their own, organisations', other people's; a fork counts only when they committed to
 * it) adds its language mix weighted by the user's commits there.
 */
import { z } from 'zod';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';
import { COMMIT_LANGUAGES_QUERY } from '../queries.js';
import { type LanguageSize, languagesOf, repositoryLanguagesSchema, sumLanguageSizes } from './languages.js';

/** As the byte shares: a year of commits moves slowly. */
const COMMIT_LANGUAGES_TTL_MS = 6 * HOUR_MS;

const commitLanguagesSchema = z.object({
  user: z.object({
    contributionsCollection: z.object({
      commitContributionsByRepository: z.array(
        z.object({
          contributions: z.object({ totalCount: z.number().int().nonnegative() }),
          repository: z.object({ languages: repositoryLanguagesSchema }),
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
      const weighted = byRepository.flatMap(({ contributions, repository }) => {
        const languages = languagesOf(repository.languages);
        const repositoryBytes = languages.reduce((sum, language) => sum + language.bytes, 0);
        if (contributions.totalCount === 0 || repositoryBytes === 0) return [];
        return [
          languages.map((language) => ({
            ...language,
            bytes: (contributions.totalCount * language.bytes) / repositoryBytes,
          })),
        ];
      });
      return { data: sumLanguageSizes(weighted) };
    },
  });
}
