/**
 * @module Where a world keeps its statistics files: `<world>/players/stats` since 26.1, and
 * `<world>/stats` before. Within one world the newer layout wins, so a file left behind by the
 * upgrade is never counted twice.
 */
import path from 'node:path';

/** Folders of one world, newest layout first. */
export function statsFoldersOf(worldDir: string): string[] {
  return [path.join(worldDir, 'players', 'stats'), path.join(worldDir, 'stats')];
}

/** Rank of a folder inside its world: lower wins. */
export function layoutRank(folder: string): number {
  return folder.endsWith(`${path.sep}players${path.sep}stats`) ? 0 : 1;
}
