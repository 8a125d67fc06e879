/**
 * @module `DELETE /projects/{id}/files`: removes one file, symlink (the link, never its target)
 * or empty folder. The parent is canonicalized inside the root; the last segment is not
 * followed, so deleting a link that points outside removes only the link.
 */
import { lstat, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { fileSystemError } from './fs-errors.js';
import { resolveRooted } from './rooted-path.js';

export async function deleteEntry(
  rootReal: string,
  segments: readonly string[],
): Promise<'file' | 'directory'> {
  if (segments.length === 0) throw new ApiError(400, 'INVALID_PATH', 'the project root cannot be deleted');
  const parent = await resolveRooted(rootReal, segments.slice(0, -1));
  if (!parent.exists) throw new ApiError(404, 'FILE_NOT_FOUND', 'no such file or folder');
  const target = path.join(parent.real, segments.at(-1)!);
  try {
    const stats = await lstat(target);
    if (stats.isDirectory()) {
      await rmdir(target);
      return 'directory';
    }
    await unlink(target);
    return 'file';
  } catch (error) {
    throw fileSystemError(error);
  }
}
