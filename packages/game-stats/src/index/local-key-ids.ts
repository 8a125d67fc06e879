/**
 * @module Statistics read with a reader's own key ids (`category\u0000key` names, see
 * canonical-stats.ts), turned into the index's global ids and packed as CompactStats: for the
 * read workers' batches and for the files re-read while following changes.
 */
import type { CanonicalStatsReader } from '../stats/canonical-stats.js';
import { allocateStats, type CompactStats } from './compact-stats.js';
import type { StatKeyTable } from './stat-key-table.js';

/** Global ids of one reader's local ids, learnt as the reader announces new key names. */
export class LocalKeyIds {
  readonly global: number[] = [];

  constructor(private readonly table: StatKeyTable) {}

  /** Interns newly announced names: local ids are handed out in order, so they come next. */
  learn(newNames: readonly string[]): void {
    for (const composite of newNames) {
      const separator = composite.indexOf('\u0000');
      this.global.push(this.table.intern(composite.slice(0, separator), composite.slice(separator + 1)));
    }
  }
}

/** Entries of one file beyond this many would collide in the packed sort key below. */
const maxEntriesPerFile = 65_536;

/** Entries `start..end` of `ids`/`values` with global ids, sorted by id as CompactStats requires. */
export function packWithGlobalIds(
  ids: ArrayLike<number>,
  values: ArrayLike<number>,
  start: number,
  end: number,
  globalIds: readonly number[],
): CompactStats {
  const length = Math.min(end - start, maxEntriesPerFile);
  // Pack (global id, position) into one number so the native numeric sort does the work.
  const packed = new Float64Array(length);
  for (let index = 0; index < length; index++) {
    packed[index] = globalIds[ids[start + index]!]! * maxEntriesPerFile + index;
  }
  packed.sort();
  const stats = allocateStats(length);
  for (let index = 0; index < length; index++) {
    const entry = packed[index]! % maxEntriesPerFile;
    stats.keyIds[index] = (packed[index]! - entry) / maxEntriesPerFile;
    stats.values[index] = values[start + entry]!;
  }
  return stats;
}

/**
 * A file's statistics through `reader` (the game's own format only), with global ids; null when
 * the reader declines the file (read it with `parseStatsFile` then).
 */
export function readCanonical(
  text: string,
  reader: CanonicalStatsReader,
  keyIds: LocalKeyIds,
): CompactStats | null {
  if (!reader.read(text)) return null;
  if (reader.keyNames.length > keyIds.global.length)
    keyIds.learn(reader.keyNames.slice(keyIds.global.length));
  return packWithGlobalIds(reader.ids, reader.values, 0, reader.count, keyIds.global);
}
