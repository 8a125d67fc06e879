/**
 * @module `POST /projects/{id}/files/write`: atomic replacement of one file. The parent folder is
 * walked below the root on directory descriptors (files/beneath.ts), creating missing folders
 * there when asked; the bytes go to a fresh temp file in that held folder (O_EXCL | O_NOFOLLOW),
 * are fsynced, the temp file is renamed over the target inside the same held folder and the
 * folder fsynced: a reader sees the old or the new content, never a mix, even on a crash, and
 * no folder swapped for a symlink can move the write out of the project.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { ApiError } from '../http/api-error.js';
import { at, walkBeneath } from './beneath.js';
import { fileSystemError } from './fs-errors.js';

interface WriteOptions {
  /** Create missing parent folders (each one inside the root). */
  createDirs: boolean;
  /** Refuses a resolved path (reserved, read-only), checked on every folder made and on the target. */
  guard: (real: string) => void;
}

interface WriteResult {
  created: boolean;
  size: number;
}

export async function writeFileAtomic(
  rootReal: string,
  segments: readonly string[],
  bytes: Buffer,
  options: WriteOptions,
): Promise<WriteResult> {
  if (segments.length === 0) throw new ApiError('IS_A_DIRECTORY', 'the project root is a folder');
  // A symlink inside the root that points to a file inside the root is written through; one
  // that leads out is refused by the walk.
  const entry = await walkBeneath(rootReal, segments, {
    followLast: true,
    createFolders: options.createDirs,
    guard: options.guard,
  }).catch((error) => {
    if (error instanceof ApiError && error.code === 'FILE_NOT_FOUND')
      throw new ApiError('FILE_NOT_FOUND', 'the parent folder does not exist (send create_dirs: true)');
    throw error;
  });
  try {
    const { folder, name, stats } = entry;
    if (name === undefined || stats?.isDirectory())
      throw new ApiError('IS_A_DIRECTORY', 'path is a folder, not a file');
    if (stats && !stats.isFile()) throw new ApiError('NOT_A_REGULAR_FILE', 'path is not a regular file');
    const mode = stats ? stats.mode & 0o7777 : 0o644;
    const temp = `.${name}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      const handle = await open(
        at(folder, temp),
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        mode,
      );
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(at(folder, temp), at(folder, name));
    } catch (error) {
      await unlink(at(folder, temp)).catch(() => {});
      throw fileSystemError(error);
    }
    // Makes the rename itself durable (the directory entry), as POSIX asks.
    await folder.sync();
    return { created: !stats, size: bytes.length };
  } finally {
    await entry.close();
  }
}
