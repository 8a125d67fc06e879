/**
 * @module The index's model: a player with the statistics files found for them, and how those
 * files combine into the player's statistics (per world the newest layout, summed across worlds).
 */
import path from 'node:path';
import { type CompactStats, packStats } from './compact-stats.js';
import type { StatKeyTable } from './stat-key-table.js';

export interface IndexedPlayer {
  readonly uuid: string;
  /** Merged statistics of every world; null when no readable file exists. */
  stats: CompactStats | null;
  /** When the statistics were last read from disk (ms since epoch). */
  readAt: number;
  /** Usually one; several when the player has files in several worlds or layouts. */
  files: StatsFileState[];
}

export interface StatsFileState {
  /** The statistics folder (one shared string per folder, not one per file). */
  folder: string;
  /** File name, kept only when it is not the canonical `<uuid>.json`. */
  name?: string;
  world: number;
  rank: number;
  mtimeMs: number;
  size: number;
  stats: CompactStats | null;
}

/** A statistics file found on disk: whose it is and which folder of which world holds it. */
export interface LocatedFile {
  path: string;
  /** The shared string of the folder. */
  folder: string;
  name: string;
  uuid: string;
  world: number;
  rank: number;
}

export interface IndexCounts {
  players: number;
  files: number;
  skippedFiles: number;
  lastBuildMs: number;
  builtAt: number;
  /** Files the last build took from the snapshot instead of reading them. */
  restoredFiles: number;
}

export function sameFile(state: StatsFileState, file: LocatedFile): boolean {
  return state.folder === file.folder && (state.name ?? `${file.uuid}.json`) === file.name;
}

export function statePath(uuid: string, state: StatsFileState): string {
  return path.join(state.folder, state.name ?? `${uuid}.json`);
}

/**
 * A string that shares no memory with `text`: V8 represents a substring as a slice that keeps
 * the whole parent string alive (here a file's full path, for every player).
 */
export function ownCopy(text: string): string {
  return Buffer.from(text, 'latin1').toString('latin1');
}

/** Per world, the file of the newest layout. */
export function bestFilePerWorld(player: IndexedPlayer): StatsFileState[] {
  const bestPerWorld = new Map<number, StatsFileState>();
  for (const file of player.files) {
    const best = bestPerWorld.get(file.world);
    if (!best || file.rank < best.rank) bestPerWorld.set(file.world, file);
  }
  return [...bestPerWorld.values()];
}

/** The sum of the files' statistics; null when none of them is readable. */
export function combineStats(files: StatsFileState[], keys: StatKeyTable): CompactStats | null {
  const parts = files.flatMap((file) => (file.stats ? [file.stats] : []));
  return parts.length === 1 ? parts[0]! : parts.length === 0 ? null : sumStats(parts, keys);
}

function sumStats(parts: CompactStats[], keys: StatKeyTable): CompactStats {
  const dumps = parts.map((part) => {
    const entries: Record<string, Record<string, number>> = {};
    part.keyIds.forEach((keyId, index) => {
      const category = keys.categoryNames[keys.categoryOfKey[keyId]!]!;
      entries[category] ??= {};
      entries[category][keys.keyNames[keyId]!] = part.values[index]!;
    });
    return entries;
  });
  return packStats(dumps, keys);
}
