/**
 * @module The fields of the /repo card.
 */
import { z } from 'zod';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';
import { REPOSITORY_QUERY } from '../queries.js';

const REPOSITORY_TTL_MS = HOUR_MS;

const repositorySchema = z.object({
  repository: z.object({
    nameWithOwner: z.string(),
    description: z.string().nullable(),
    stargazerCount: z.number().int().nonnegative(),
    forkCount: z.number().int().nonnegative(),
    isArchived: z.boolean(),
    isTemplate: z.boolean(),
    isFork: z.boolean(),
    primaryLanguage: z.object({ name: z.string(), color: z.string().nullable() }).nullable(),
    licenseInfo: z.object({ spdxId: z.string().nullable(), name: z.string() }).nullable(),
  }),
});

export type Repository = z.infer<typeof repositorySchema>['repository'];

export function fetchRepository(context: FetchContext, owner: string, name: string): Promise<Repository> {
  return context.cache.get<Repository>({
    key: `repo:${keyPart(owner)}/${keyPart(name)}`,
    ttlMs: REPOSITORY_TTL_MS,
    async load() {
      const raw = await context.client.graphql(
        REPOSITORY_QUERY,
        { owner, name },
        `repository "${owner}/${name}"`,
      );
      return { data: repositorySchema.parse(raw).repository };
    },
  });
}
