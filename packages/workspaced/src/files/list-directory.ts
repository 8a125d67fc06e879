/**
 * @module `GET /projects/{id}/files`: one folder's entries with type, size and modification time,
 * sorted by name. Symlinks are listed as links (never followed here).
 */
import { lstatSync } from 'node:fs';
import { opendir } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileSystemError } from './fs-errors.js';

export type EntryType = 'file' | 'directory' | 'symlink' | 'other';

export interface DirectoryEntry {
  name: string;
  type: EntryType;
  size: number;
  modified_at: string;
}

export interface DirectoryListing {
  entries: DirectoryEntry[];
  truncated: boolean;
}

/**
 * lstat calls made synchronously between two turns of the event loop. Thousands of async lstat
 * calls queue on libuv's four pool threads and took 3-4x longer (bench/README.md); a batch of
 * synchronous ones blocks the loop for about a millisecond, then lets other requests run.
 */
const statBatch = 256;

export async function listDirectory(real: string, maxEntries: number): Promise<DirectoryListing> {
  const names: { name: string; type: EntryType }[] = [];
  let truncated = false;
  let directory: Awaited<ReturnType<typeof opendir>>;
  try {
    directory = await opendir(real, { bufferSize: 256 });
  } catch (error) {
    throw fileSystemError(error);
  }
  for await (const dirent of directory) {
    if (names.length === maxEntries) {
      truncated = true;
      break;
    }
    const type: EntryType = dirent.isFile()
      ? 'file'
      : dirent.isDirectory()
        ? 'directory'
        : dirent.isSymbolicLink()
          ? 'symlink'
          : 'other';
    names.push({ name: dirent.name, type });
  }
  if (truncated) await directory.close().catch(() => {});
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entries: DirectoryEntry[] = [];
  for (let start = 0; start < names.length; start += statBatch) {
    if (start > 0) await nextTurn();
    for (const { name, type } of names.slice(start, start + statBatch)) {
      // An entry removed (or unreadable) between readdir and lstat is still listed, with zero size.
      const stats = statOrNothing(path.join(real, name));
      entries.push({
        name,
        type,
        size: stats?.size ?? 0,
        modified_at: new Date(stats?.mtimeMs ?? 0).toISOString(),
      });
    }
  }
  return { entries, truncated };
}

function statOrNothing(file: string) {
  try {
    return lstatSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}
