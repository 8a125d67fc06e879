/**
 * @module `POST /projects/{id}/files/write`: atomic replacement of one file. The bytes go to a
 * fresh temp file beside the target (O_EXCL | O_NOFOLLOW), are fsynced, the folder is
 * re-checked to still lie inside the root, then the temp file is renamed over the target and
 * the folder fsynced: a reader sees the old or the new content, never a mix, even on a crash.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { fileSystemError } from './fs-errors.js';
import { isInside, resolveRooted } from './rooted-path.js';

export interface WriteOptions {
  /** Create missing parent folders (each one re-checked inside the root). */
  createDirs: boolean;
}

export interface WriteResult {
  created: boolean;
  size: number;
}

export async function writeFileAtomic(
  rootReal: string,
  segments: readonly string[],
  bytes: Buffer,
  options: WriteOptions,
): Promise<WriteResult> {
  if (segments.length === 0) throw new ApiError(400, 'IS_A_DIRECTORY', 'the project root is a folder');
  // A symlink inside the root that points to a file inside the root is written through; one
  // that points outside was already refused by resolveRooted.
  const target = await resolveRooted(rootReal, segments);
  const folder = path.dirname(target.real);
  await ensureFolder(rootReal, folder, options.createDirs);
  let mode = 0o644;
  if (target.exists) {
    const stats = await stat(target.real).catch((error) => Promise.reject(fileSystemError(error)));
    if (stats.isDirectory()) throw new ApiError(400, 'IS_A_DIRECTORY', 'path is a folder, not a file');
    if (!stats.isFile()) throw new ApiError(400, 'NOT_A_REGULAR_FILE', 'path is not a regular file');
    mode = stats.mode & 0o7777;
  }
  const temp = path.join(folder, `.${path.basename(target.real)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(
      temp,
      constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
      mode,
    );
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    // The folder may have been swapped for a symlink since it was resolved: check again last.
    if (!isInside(rootReal, await realpath(folder)))
      throw new ApiError(403, 'PATH_OUTSIDE_ROOT', 'path resolves outside the project root');
    await rename(temp, target.real);
  } catch (error) {
    await unlink(temp).catch(() => {});
    throw fileSystemError(error);
  }
  await syncFolder(folder);
  return { created: !target.exists, size: bytes.length };
}

async function ensureFolder(rootReal: string, folder: string, create: boolean): Promise<void> {
  const existing = await lstat(folder).catch(() => null);
  if (existing?.isDirectory()) return;
  if (existing) throw new ApiError(400, 'NOT_A_DIRECTORY', 'a parent of the path is not a folder');
  if (!create)
    throw new ApiError(404, 'FILE_NOT_FOUND', 'the parent folder does not exist (send create_dirs: true)');
  // Create one level at a time so every new folder is checked inside the root.
  const missing: string[] = [];
  let cursor = folder;
  while (!(await lstat(cursor).catch(() => null))) {
    missing.unshift(cursor);
    cursor = path.dirname(cursor);
  }
  for (const dir of missing) {
    await mkdir(dir).catch((error) => {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw fileSystemError(error);
    });
    if (!isInside(rootReal, await realpath(dir)))
      throw new ApiError(403, 'PATH_OUTSIDE_ROOT', 'path resolves outside the project root');
  }
}

/** Makes the rename itself durable (the directory entry), as POSIX asks. */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, constants.O_RDONLY | constants.O_DIRECTORY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
