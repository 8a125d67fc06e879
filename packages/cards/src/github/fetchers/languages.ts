/**
 * @module Language byte sizes of the user's public non-fork repositories, kept per repository
 * so a card can leave some out (github-readme-stats' `exclude_repo`), summed per language.
 */
import { z } from 'zod';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';
import { USER_LANGUAGES_QUERY } from '../queries.js';

/** Language mixes move slowly; GitHub's own linguist runs are not instant either. */
const LANGUAGES_TTL_MS = 6 * HOUR_MS;
/** 500 repositories: beyond that the shares no longer move. */
const MAX_PAGES = 5;
/** Linguist has no colour for a few languages; GitHub shows them grey. */
const FALLBACK_COLOR = '#8b949e';

/** A repository's `languages { edges { size node { name color } } }`, as every query asks it. */
export const repositoryLanguagesSchema = z
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
  .nullable();

const languagesSchema = z.object({
  user: z.object({
    repositories: z.object({
      nodes: z.array(z.object({ name: z.string(), languages: repositoryLanguagesSchema }).nullable()),
      pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() }),
    }),
  }),
});

export interface LanguageSize {
  name: string;
  color: string;
  bytes: number;
  repositories: number;
}

/** One language of one repository. */
interface LanguageBytes {
  name: string;
  color: string;
  bytes: number;
}

interface RepositoryLanguages {
  /** Lower-cased: GitHub repository names are case-insensitive. */
  repository: string;
  languages: LanguageBytes[];
}

/** A repository's languages as GitHub lists them (linguist's grey for those without a colour). */
export function languagesOf(languages: z.infer<typeof repositoryLanguagesSchema>): LanguageBytes[] {
  return (languages?.edges ?? []).flatMap((edge) =>
    edge === null
      ? []
      : [{ name: edge.node.name, color: edge.node.color ?? FALLBACK_COLOR, bytes: edge.size }],
  );
}

/** Exclusion lists remembered per fetched data set (hostile lists cannot grow it further). */
const MAX_SUMS_PER_DATA = 16;

/**
 * Sums per fetched data set and exclusion list: a warm card gets the same array back, which
 * the drawing memo keys on, and the sums go with the data when it is refreshed.
 */
const sumsByData = new WeakMap<RepositoryLanguages[], Map<string, LanguageSize[]>>();

/**
 * Every language of the user's repositories, largest first, leaving out the repositories named
 * in `excludedRepositories` (any case). One cached fetch serves every exclusion list.
 */
export async function fetchLanguageSizes(
  context: FetchContext,
  login: string,
  excludedRepositories: readonly string[] = [],
): Promise<LanguageSize[]> {
  const repositories = await fetchRepositoryLanguages(context, login);
  const excluded = new Set(excludedRepositories.map((name) => name.toLowerCase()));
  const key = [...excluded].sort().join('/');
  let sums = sumsByData.get(repositories);
  if (sums === undefined) {
    sums = new Map();
    sumsByData.set(repositories, sums);
  }
  const known = sums.get(key);
  if (known !== undefined) return known;
  const summed = sumLanguageSizes(
    repositories.flatMap(({ repository, languages }) => (excluded.has(repository) ? [] : [languages])),
  );
  if (sums.size >= MAX_SUMS_PER_DATA) sums.delete(sums.keys().next().value!);
  sums.set(key, summed);
  return summed;
}

/** Per language, its bytes summed over `repositories` and how many of them use it; largest first. */
export function sumLanguageSizes(repositories: readonly (readonly LanguageBytes[])[]): LanguageSize[] {
  const totals = new Map<string, LanguageSize>();
  for (const languages of repositories) {
    for (const language of languages) {
      const known = totals.get(language.name) ?? { ...language, bytes: 0, repositories: 0 };
      known.bytes += language.bytes;
      known.repositories += 1;
      totals.set(language.name, known);
    }
  }
  return [...totals.values()].sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
}

function fetchRepositoryLanguages(context: FetchContext, login: string): Promise<RepositoryLanguages[]> {
  return context.cache.get<RepositoryLanguages[]>({
    key: `repository-languages:${keyPart(login)}`,
    ttlMs: LANGUAGES_TTL_MS,
    async load() {
      const data: RepositoryLanguages[] = [];
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const raw: unknown = await context.client.graphql(
          USER_LANGUAGES_QUERY,
          { login, after },
          `user "${login}"`,
        );
        const repositories = languagesSchema.parse(raw).user.repositories;
        for (const repository of repositories.nodes) {
          if (repository === null) continue;
          data.push({
            repository: repository.name.toLowerCase(),
            languages: languagesOf(repository.languages),
          });
        }
        if (!repositories.pageInfo.hasNextPage) break;
        after = repositories.pageInfo.endCursor;
      }
      return { data };
    },
  });
}
