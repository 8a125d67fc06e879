/**
 * @module resolveList: find a registry record from an id, a domain, a URL or a common alias.
 */
import { BotlistsError } from '../errors.js';
import { trimTrailingSlashes } from '../text/trim-slashes.js';
import type { BotlistRecord } from '../types.js';
import { builtInLists } from './lists.generated.js';

/** `https://www.Top.gg/bot/1` → `top.gg/bot/1`: case, scheme and `www.` never matter. */
function normalise(query: string): string {
  return trimTrailingSlashes(
    query
      .trim()
      .toLowerCase()
      .replace(/^[a-z]+:\/\//, '')
      .replace(/^www\./, ''),
  );
}

function hostOf(url: string): string {
  return normalise(url).split('/')[0] ?? '';
}

/**
 * Resolves a list by id (`top.gg`), domain or URL (`https://top.gg/bot/1`), or alias (`topgg`, `dbl`).
 * Returns null when nothing matches; throws a BotlistsError when the query names several lists
 * (e.g. `discord`), so a typo never posts to the wrong site.
 */
export function resolveList(
  query: string,
  lists: readonly BotlistRecord[] = builtInLists,
): BotlistRecord | null {
  const wanted = normalise(query);
  if (!wanted) return null;
  const host = wanted.split('/')[0] ?? '';
  const exact =
    lists.find((l) => l.id === wanted) ??
    lists.find((l) => l.id === host || hostOf(l.website) === host) ??
    lists.find((l) => l.aliases?.includes(wanted));
  if (exact) return exact;
  // A bare label (`yabl`, `disforge`) matches the first label of one domain, never several.
  const byLabel = lists.filter((l) => l.id.split('.')[0] === wanted);
  if (byLabel.length > 1) {
    throw new BotlistsError(`"${query}" is ambiguous: ${byLabel.map((l) => l.id).join(', ')}`);
  }
  return byLabel[0] ?? null;
}

/** Like resolveList but throws when nothing matches (for methods that need one list). */
export function requireList(query: string | BotlistRecord, lists: readonly BotlistRecord[]): BotlistRecord {
  if (typeof query !== 'string') return query;
  const found = resolveList(query, lists);
  if (!found) throw new BotlistsError(`unknown list "${query}"`, { listId: query });
  return found;
}
