/**
 * @module `GET /projects/{id}/files`: one folder's entries with type, size and modification time,
 * sorted by name. Symlinks are listed as links (never followed here).
 */
import { lstat, opendir } from 'node:fs/promises';
import path from 'node:path';
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

/** lstat calls in flight at once: enough to keep libuv's pool busy without queueing thousands. */
const statConcurrency = 64;

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
  const entries: DirectoryEntry[] = new Array(names.length);
  let next = 0;
  const worker = async () => {
    while (next < names.length) {
      const index = next++;
      const { name, type } = names[index]!;
      // An entry removed between readdir and lstat is still listed, with zero size.
      const stats = await lstat(path.join(real, name)).catch(() => null);
      entries[index] = {
        name,
        type,
        size: stats?.size ?? 0,
        modified_at: new Date(stats?.mtimeMs ?? 0).toISOString(),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(statConcurrency, names.length) }, worker));
  return { entries, truncated };
}
