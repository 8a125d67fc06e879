/**
 * @module Reader of the game's `usercache.json` (`[{name, uuid, expiresOn}]`), tolerant of
 * missing, stale and malformed entries.
 */
import { z } from 'zod';
import { normaliseUuid } from './uuid.js';

/** The game keeps an entry for a month after the player was last seen. */
const usercacheLifetimeMs = 30 * 24 * 3_600_000;

const entrySchema = z.object({
  name: z.string().min(1).max(64),
  uuid: z.string(),
  expiresOn: z.string().optional(),
});

export interface UsercacheEntry {
  uuid: string;
  name: string;
  /** When the game last saw the player, estimated from `expiresOn`; 0 when unknown. */
  seenAt: number;
}

/** Parses the file's text; entries that do not validate are dropped, not fatal. */
export function parseUsercache(text: string): { entries: UsercacheEntry[]; rejected: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { entries: [], rejected: 1 };
  }
  if (!Array.isArray(parsed)) return { entries: [], rejected: 1 };
  const entries: UsercacheEntry[] = [];
  let rejected = 0;
  for (const item of parsed) {
    const result = entrySchema.safeParse(item);
    const uuid = result.success ? normaliseUuid(result.data.uuid) : null;
    if (!result.success || !uuid) {
      rejected++;
      continue;
    }
    const expires = result.data.expiresOn ? Date.parse(result.data.expiresOn.replace(' ', 'T')) : Number.NaN;
    const seenAt = Number.isNaN(expires) ? 0 : expires - usercacheLifetimeMs;
    entries.push({ uuid, name: result.data.name, seenAt });
  }
  return { entries, rejected };
}
