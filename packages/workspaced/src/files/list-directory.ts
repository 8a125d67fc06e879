/**
 * @module `GET /projects/{id}/files`: one folder's entries with type, size and modification time,
 * sorted by name. Symlinks are listed as links (never followed here). The folder is walked below
 * the root on directory descriptors (files/beneath.ts) and read through its own descriptor, so a
 * folder swapped for a symlink never lists what lies outside.
 */
import { constants, lstatSync } from 'node:fs';
import { opendir } from 'node:fs/promises';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApiError } from '../http/api-error.js';
import { at, openEntry, walkBeneath } from './beneath.js';
import { fileSystemError } from './fs-errors.js';

type EntryType = 'file' | 'directory' | 'symlink' | 'other';

interface DirectoryEntry {
  name: string;
  type: EntryType;
  size: number;
  modified_at: string;
}

interface DirectoryListing {
  entries: DirectoryEntry[];
  truncated: boolean;
}

/**
 * lstat calls made synchronously between two turns of the event loop. Thousands of async lstat
 * calls queue on libuv's four pool threads and took 3-4x longer (bench/README.md); a batch of
 * synchronous ones blocks the loop for about a millisecond, then lets other requests run.
 */
const statBatch = 256;

export async function listDirectory(
  rootReal: string,
  segments: readonly string[],
  maxEntries: number,
  guard: (real: string) => void,
): Promise<DirectoryListing> {
  const entry = await walkBeneath(rootReal, segments, { followLast: true, guard });
  let folder: Awaited<ReturnType<typeof openEntry>>;
  try {
    if (!entry.stats) throw new ApiError('FILE_NOT_FOUND', 'no such folder');
    folder = await openEntry(entry, constants.O_RDONLY | constants.O_DIRECTORY);
  } finally {
    await entry.close();
  }
  try {
    return await listHeldFolder(folder, maxEntries);
  } finally {
    await folder.close();
  }
}

async function listHeldFolder(
  folder: Awaited<ReturnType<typeof openEntry>>,
  maxEntries: number,
): Promise<DirectoryListing> {
  const names: { name: string; type: EntryType }[] = [];
  let truncated = false;
  let directory: Awaited<ReturnType<typeof opendir>>;
  try {
    directory = await opendir(at(folder), { bufferSize: 256 });
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
      const stats = statOrNothing(at(folder, name));
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
