/**
 * @module Walks a path below a project root on directory descriptors, so a folder swapped for a
 * symlink while a request runs can never lead out. Node has no openat(), but on Linux
 * `/proc/self/fd/<fd>/<name>` names `name` inside the folder held open as `fd`: each component
 * is looked up there (lstat, never following it) and opened with O_NOFOLLOW | O_DIRECTORY, and
 * its descriptor is held until the next one is open, so no path is ever resolved from the root
 * again. A symlink met on the way is read and followed only while its target stays below the
 * root, itself component by component (openat2's RESOLVE_BENEATH, by hand); one leading out,
 * dangling into the unknown or looping is refused. The caller works on the entry through
 * `at(folder, name)` and closes it.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readlink } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { fileSystemError } from './fs-errors.js';
import { isInside } from './rooted-path.js';

/** Linux follows at most 40 symlinks in one lookup (ELOOP); so do we. */
const maxLinks = 40;

const folderFlags = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

interface BeneathEntry {
  /** The open folder holding the entry; the entry itself when `name` is undefined. */
  folder: FileHandle;
  /** The entry's name in `folder`; undefined when the path resolved to a folder (the root...). */
  name: string | undefined;
  /** The entry, not followed (a symlink only when `followLast` was false); null when missing. */
  stats: Stats | null;
  /** Canonical absolute path of the entry at the time of the walk. */
  real: string;
  close(): Promise<void>;
}

interface WalkOptions {
  /** Follow a symlink in the last segment (read, write, list); delete works on the link itself. */
  followLast: boolean;
  /** Create missing folders on the way (write with `create_dirs`). */
  createFolders?: boolean;
  /** Refuses a resolved path (reserved or read-only): called before a folder is created and on the entry. */
  guard?: (real: string) => void;
}

/** `name` inside the held `folder` (or the folder itself), as a path the kernel resolves through the descriptor. */
export function at(folder: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${folder.fd}` : `/proc/self/fd/${folder.fd}/${name}`;
}

const outside = () => new ApiError('PATH_OUTSIDE_ROOT', 'path resolves outside the project root');

export async function walkBeneath(
  rootReal: string,
  segments: readonly string[],
  options: WalkOptions,
): Promise<BeneathEntry> {
  const held = [await openFolder(rootReal)];
  /** Resolved names below the root, one per held folder after the first. */
  const names: string[] = [];
  const pending = [...segments];
  let links = 0;
  const realOf = (name?: string) => path.join(rootReal, ...names, ...(name === undefined ? [] : [name]));
  try {
    while (pending.length > 0) {
      const name = pending.shift()!;
      if (name === '' || name === '.') continue;
      if (name === '..') {
        // Only a symlink's target gets here; the client's path never holds "..".
        if (names.length === 0) throw outside();
        names.pop();
        await held.pop()!.close();
        continue;
      }
      const folder = held.at(-1)!;
      const last = pending.every((rest) => rest === '' || rest === '.');
      const stats = await lstat(at(folder, name)).catch((error) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw fileSystemError(error);
      });
      if (stats?.isSymbolicLink() && (!last || options.followLast)) {
        if (++links > maxLinks) throw outside();
        const target = await readlink(at(folder, name)).catch((error) => {
          // EINVAL: no longer a symlink (swapped back meanwhile); look at the name again.
          if ((error as NodeJS.ErrnoException).code === 'EINVAL') return undefined;
          throw fileSystemError(error);
        });
        if (target === undefined) pending.unshift(name);
        else if (path.isAbsolute(target)) {
          if (!isInside(rootReal, target)) throw outside();
          while (held.length > 1) await held.pop()!.close();
          names.length = 0;
          pending.unshift(...target.slice(rootReal.length).split('/'));
        } else pending.unshift(...target.split('/'));
        continue;
      }
      if (last) {
        options.guard?.(realOf(name));
        return entry(held, folder, name, stats, realOf(name));
      }
      if (!stats) {
        if (!options.createFolders) throw new ApiError('FILE_NOT_FOUND', 'no such file or folder');
        options.guard?.(realOf(name));
        await mkdir(at(folder, name)).catch((error) => {
          if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fileSystemError(error);
        });
      } else if (!stats.isDirectory())
        throw new ApiError('NOT_A_DIRECTORY', 'a parent of the path is not a folder');
      // O_NOFOLLOW: a folder swapped for a symlink since the lstat fails here (ELOOP) instead.
      held.push(await openFolder(at(folder, name)));
      names.push(name);
    }
    const folder = held.at(-1)!;
    options.guard?.(realOf());
    return entry(held, folder, undefined, await folder.stat(), realOf());
  } catch (error) {
    await Promise.all(held.map((handle) => handle.close().catch(() => {})));
    throw error;
  }
}

/** Keeps `folder` open for the caller, closes the ones above it. */
function entry(
  held: FileHandle[],
  folder: FileHandle,
  name: string | undefined,
  stats: Stats | null,
  real: string,
): BeneathEntry {
  for (const handle of held) if (handle !== folder) void handle.close().catch(() => {});
  return { folder, name, stats, real, close: () => folder.close().catch(() => {}) };
}

async function openFolder(folder: string): Promise<FileHandle> {
  try {
    return await open(folder, folderFlags);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw outside();
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR')
      throw new ApiError('NOT_A_DIRECTORY', 'a parent of the path is not a folder');
    throw fileSystemError(error);
  }
}

/**
 * Opens the walked entry with `flags`; O_NOFOLLOW makes a name swapped for a symlink since the
 * walk fail. A folder entry is reopened through its own descriptor (O_NOFOLLOW would refuse
 * the /proc link itself).
 */
export async function openEntry(entry: BeneathEntry, flags: number): Promise<FileHandle> {
  try {
    if (entry.name === undefined) return await open(at(entry.folder), flags);
    return await open(at(entry.folder, entry.name), flags | constants.O_NOFOLLOW);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw outside();
    throw fileSystemError(error);
  }
}
