/**
 * @module `GET /projects/{id}/files/read`: a whole regular file, bounded in size, opened below
 * the root on directory descriptors (files/beneath.ts) so no folder swapped for a symlink can
 * lead the read out of the project.
 */
import { constants } from 'node:fs';
import { ApiError } from '../http/api-error.js';
import { openEntry, walkBeneath } from './beneath.js';

interface FileBytes {
  bytes: Buffer;
  modifiedAt: Date;
}

export async function readRegularFile(
  rootReal: string,
  segments: readonly string[],
  maxBytes: number,
  guard: (real: string) => void,
): Promise<FileBytes> {
  const entry = await walkBeneath(rootReal, segments, { followLast: true, guard });
  let handle: Awaited<ReturnType<typeof openEntry>>;
  try {
    if (!entry.stats) throw new ApiError('FILE_NOT_FOUND', 'no such file');
    handle = await openEntry(entry, constants.O_RDONLY | constants.O_NONBLOCK);
  } finally {
    await entry.close();
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new ApiError('IS_A_DIRECTORY', 'path is a folder, not a file');
    if (!stats.isFile()) throw new ApiError('NOT_A_REGULAR_FILE', 'path is not a regular file');
    if (stats.size > maxBytes)
      throw new ApiError('FILE_TOO_LARGE', `the file is larger than the ${maxBytes}-byte read limit`, {
        size: stats.size,
        limit: maxBytes,
      });
    // Read at most limit+1 bytes: a file growing after fstat is caught, not read unbounded.
    const buffer = Buffer.alloc(Math.min(stats.size, maxBytes) + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes)
      throw new ApiError('FILE_TOO_LARGE', `the file is larger than the ${maxBytes}-byte read limit`);
    return { bytes: buffer.subarray(0, length), modifiedAt: stats.mtime };
  } finally {
    await handle.close();
  }
}
