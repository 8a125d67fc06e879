/**
 * @module Language byte sizes summed over the user's public non-fork repositories.
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

const languagesSchema = z.object({
  user: z.object({
    repositories: z.object({
      nodes: z.array(
        z
          .object({
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
          })
          .nullable(),
      ),
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

/** Every language of the user's repositories, largest first. */
export function fetchLanguageSizes(context: FetchContext, login: string): Promise<LanguageSize[]> {
  return context.cache.get<LanguageSize[]>({
    key: `languages:${keyPart(login)}`,
    ttlMs: LANGUAGES_TTL_MS,
    async load() {
      const totals = new Map<string, LanguageSize>();
      let after: string | null = null;
      for (let page = 0; page < MAX_PAGES; page += 1) {
        const raw: unknown = await context.client.graphql(
          USER_LANGUAGES_QUERY,
          { login, after },
          `user "${login}"`,
        );
        const repositories = languagesSchema.parse(raw).user.repositories;
        for (const repository of repositories.nodes) {
          for (const edge of repository?.languages?.edges ?? []) {
            if (edge === null) continue;
            const known = totals.get(edge.node.name) ?? {
              name: edge.node.name,
              color: edge.node.color ?? FALLBACK_COLOR,
              bytes: 0,
              repositories: 0,
            };
            known.bytes += edge.size;
            known.repositories += 1;
            totals.set(edge.node.name, known);
          }
        }
        if (!repositories.pageInfo.hasNextPage) break;
        after = repositories.pageInfo.endCursor;
      }
      const data = [...totals.values()].sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
      return { data };
    },
  });
}
