/**
 * @module `DELETE /projects/{id}/files`: removes one file, symlink (the link, never its target)
 * or empty folder. The parent is walked below the root on directory descriptors
 * (files/beneath.ts) and the entry removed inside that held folder; the last segment is not
 * followed, so deleting a link that points outside removes only the link.
 */
import { rmdir, unlink } from 'node:fs/promises';
import { ApiError } from '../http/api-error.js';
import { at, walkBeneath } from './beneath.js';
import { fileSystemError } from './fs-errors.js';

export async function deleteEntry(
  rootReal: string,
  segments: readonly string[],
  guard: (real: string) => void,
): Promise<'file' | 'directory'> {
  if (segments.length === 0) throw new ApiError('INVALID_PATH', 'the project root cannot be deleted');
  const entry = await walkBeneath(rootReal, segments, { followLast: false, guard });
  try {
    if (entry.name === undefined) throw new ApiError('INVALID_PATH', 'the project root cannot be deleted');
    if (!entry.stats) throw new ApiError('FILE_NOT_FOUND', 'no such file or folder');
    const target = at(entry.folder, entry.name);
    try {
      if (entry.stats.isDirectory()) {
        await rmdir(target);
        return 'directory';
      }
      await unlink(target);
      return 'file';
    } catch (error) {
      throw fileSystemError(error);
    }
  } finally {
    await entry.close();
  }
}
