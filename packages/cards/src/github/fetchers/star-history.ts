/**
 * @module Stargazer timestamps of a repository from the REST API (`star+json`), every page for
 * small repositories and 16 evenly spaced pages for large ones (the list stops at 40,000 stars).
 */
import { z } from 'zod';
import { dataOrCached } from '../conditional.js';
import { type FetchContext, HOUR_MS, keyPart } from '../context.js';

const REPOSITORY_TTL_MS = HOUR_MS;
/** A full page of old stargazers never changes; the last page grows. */
const FULL_PAGE_TTL_MS = 24 * HOUR_MS;
const LAST_PAGE_TTL_MS = HOUR_MS;
const PER_PAGE = 100;
/** GitHub answers 422 past page 400 of any list. */
const MAX_LISTED_PAGES = 400;
/** Pages fetched for a large repository (what star-history.com samples too). */
const SAMPLED_PAGES = 16;

const repositorySchema = z.object({ stargazers_count: z.number().int().nonnegative() });
const stargazersSchema = z.array(z.object({ starred_at: z.string() }));

export interface StarHistory {
  total: number;
  /** [epoch ms, stars so far], oldest first, the last one being (fetch time, total). */
  points: Array<[number, number]>;
  /** True when some pages were skipped: the curve is interpolated between the samples. */
  sampled: boolean;
}

/** The pages to read: all of them, or an even spread that keeps the first and the last. */
function pagesToFetch(pageCount: number): number[] {
  if (pageCount <= SAMPLED_PAGES) return Array.from({ length: pageCount }, (_, index) => index + 1);
  const step = (pageCount - 1) / (SAMPLED_PAGES - 1);
  return [...new Set(Array.from({ length: SAMPLED_PAGES }, (_, index) => Math.round(1 + index * step)))];
}

export async function fetchStarHistory(
  context: FetchContext,
  owner: string,
  name: string,
): Promise<StarHistory> {
  const slug = `${keyPart(owner)}/${keyPart(name)}`;
  const path = `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
  const subject = `repository "${owner}/${name}"`;
  const total = await context.cache.get<number>({
    key: `rest-repo:${slug}`,
    ttlMs: REPOSITORY_TTL_MS,
    async load(previous) {
      const result = await context.client.rest(path, { subject, etag: previous?.etag });
      return dataOrCached(result, previous, (data) => repositorySchema.parse(data).stargazers_count);
    },
  });
  const pageCount = Math.min(Math.ceil(total / PER_PAGE), MAX_LISTED_PAGES);
  const pages = pagesToFetch(pageCount);
  const timestamps = await Promise.all(
    pages.map((page) =>
      context.cache.get<number[]>({
        key: `stargazers:${slug}:${page}`,
        ttlMs: page === pageCount ? LAST_PAGE_TTL_MS : FULL_PAGE_TTL_MS,
        async load(previous) {
          const result = await context.client.rest(`${path}/stargazers?per_page=${PER_PAGE}&page=${page}`, {
            subject,
            accept: 'application/vnd.github.star+json',
            etag: previous?.etag,
          });
          return dataOrCached(result, previous, (data) =>
            stargazersSchema.parse(data).map((star) => Date.parse(star.starred_at)),
          );
        },
      }),
    ),
  );
  const points: Array<[number, number]> = [];
  pages.forEach((page, index) => {
    const first = (page - 1) * PER_PAGE;
    (timestamps[index] ?? []).forEach((time, offset) => {
      if (Number.isFinite(time)) points.push([time, first + offset + 1]);
    });
  });
  points.push([context.now(), Math.max(total, points.at(-1)?.[1] ?? 0)]);
  return { total, points, sampled: pages.length < pageCount || total > pageCount * PER_PAGE };
}
