/**
 * @module Reader of the game's `usercache.json` (`[{name, uuid, expiresOn}]`), tolerant of
 * missing, stale and malformed entries.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
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

/**
 * The game writes `2026-12-24 10:00:00 +0000` (Java's `yyyy-MM-dd HH:mm:ss Z`), which
 * `Date.parse` refuses as it stands; as `2026-12-24T10:00:00+0000` it is ISO 8601.
 */
function parseExpiresOn(text: string): number {
  const game = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}) ([+-]\d{4})$/.exec(text);
  return Date.parse(game ? `${game[1]}T${game[2]}${game[3]}` : text);
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
    const expires = result.data.expiresOn ? parseExpiresOn(result.data.expiresOn) : Number.NaN;
    const seenAt = Number.isNaN(expires) ? 0 : expires - usercacheLifetimeMs;
    entries.push({ uuid, name: result.data.name, seenAt });
  }
  return { entries, rejected };
}

/**
 * Parsed entries as a few columns: two joined strings and one typed array copy between threads
 * in microseconds, where 100,000 small objects would take milliseconds to deserialise.
 */
interface UsercacheColumns {
  /** UUIDs joined by newlines (normalised UUIDs hold none). */
  uuids: string;
  /** Names joined by NUL, or the list when a name holds one. */
  names: string | string[];
  seenAt: Float64Array<ArrayBuffer>;
  rejected: number;
}

export function packUsercache({
  entries,
  rejected,
}: {
  entries: UsercacheEntry[];
  rejected: number;
}): UsercacheColumns {
  const names = entries.map((entry) => entry.name);
  return {
    uuids: entries.map((entry) => entry.uuid).join('\n'),
    names: names.some((name) => name.includes('\u0000')) ? names : names.join('\u0000'),
    seenAt: Float64Array.from(entries, (entry) => entry.seenAt),
    rejected,
  };
}

/**
 * The entries of columns one at a time: only the strings of the entries read so far are cut
 * from the joined columns (splitting 100,000 at once, with the garbage it makes, took tens of
 * milliseconds on the event loop).
 */
export function* unpackUsercache(columns: UsercacheColumns): Generator<UsercacheEntry> {
  const names = columns.names;
  let uuidStart = 0;
  let nameStart = 0;
  for (let index = 0; index < columns.seenAt.length; index++) {
    let uuidEnd = columns.uuids.indexOf('\n', uuidStart);
    if (uuidEnd === -1) uuidEnd = columns.uuids.length;
    let name: string;
    if (typeof names === 'string') {
      let nameEnd = names.indexOf('\u0000', nameStart);
      if (nameEnd === -1) nameEnd = names.length;
      name = names.slice(nameStart, nameEnd);
      nameStart = nameEnd + 1;
    } else name = names[index]!;
    yield { uuid: columns.uuids.slice(uuidStart, uuidEnd), name, seenAt: columns.seenAt[index]! };
    uuidStart = uuidEnd + 1;
  }
}

const workerUrl = new URL('./usercache-worker.js', import.meta.url);

/** Whether the compiled worker is present (it is not when running from TypeScript sources). */
export function usercacheWorkerAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl));
}

/** Reads and parses the file on a worker thread; rejects when it cannot be read. */
export function parseUsercacheOffThread(
  file: string,
): Promise<{ entries: Iterable<UsercacheEntry>; rejected: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(workerUrl, { workerData: { file } });
    worker.once('message', (columns: UsercacheColumns) =>
      resolve({ entries: unpackUsercache(columns), rejected: columns.rejected }),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`usercache worker exited with ${code}`)));
  });
}
