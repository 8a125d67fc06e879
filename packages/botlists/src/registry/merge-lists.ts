/**
 * @module Merges user list records (overrides or custom lists) over the built-in registry.
 */
import { trimTrailingSlashes } from '../text/trim-slashes.js';
import type { BotlistRecord } from '../types.js';
import { builtInLists } from './lists.generated.js';

/** A user record replaces nothing wholesale: given fields override the built-in record of the same id. */
export type ListOverride = Partial<BotlistRecord> & { id: string };

/** Built-ins first (registry order), then custom lists; an override with a known id patches that record. */
export function mergeLists(overrides: readonly ListOverride[] = []): BotlistRecord[] {
  const merged = builtInLists.map((l) => ({ ...l }));
  for (const override of overrides) {
    const index = merged.findIndex((l) => l.id === override.id);
    if (index >= 0) {
      merged[index] = { ...rebaseEndpoints(merged[index]!, override), ...override } as BotlistRecord;
      // An overridden stats URL is where the user wants stats to go, not the newer built-in route.
      if (override.apiPost !== undefined && override.metricsPost === undefined)
        merged[index]!.metricsPost = null;
      continue;
    }
    merged.push(completeCustomList(override));
  }
  return merged;
}

/** A new `apiBase` carries the routes built on the old one (unless the override gives them itself). */
function rebaseEndpoints(record: BotlistRecord, override: ListOverride): BotlistRecord {
  const from = record.apiBase;
  if (!override.apiBase || !from) return record;
  const to = trimTrailingSlashes(override.apiBase);
  const move = <E extends { url: string }>(endpoint: E | null | undefined, given: unknown) =>
    given === undefined && endpoint?.url.startsWith(`${from}/`)
      ? { ...endpoint, url: `${to}${endpoint.url.slice(from.length)}` }
      : endpoint;
  return {
    ...record,
    metricsPost: move(record.metricsPost, override.metricsPost),
    commands: move(record.commands, override.commands),
  };
}

function completeCustomList(o: ListOverride): BotlistRecord {
  const apiPost = o.apiPost ?? null;
  return {
    name: o.id,
    website: `https://${o.id}`,
    apiDocs: null,
    postField: 'server_count',
    postMethod: apiPost ? 'POST' : null,
    shardField: null,
    shardIdField: null,
    shardsArrayField: null,
    apiGet: null,
    viewBot: null,
    widget: null,
    authHeader: 'Authorization',
    tokenEnvKey: `LIST_TOKEN_${o.id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`,
    webhook: { header: 'Authorization', voterField: 'user', eventField: 'type' },
    supports: { post: apiPost !== null, get: Boolean(o.apiGet), widget: Boolean(o.widget), webhook: true },
    ...o,
    apiPost,
  };
}
