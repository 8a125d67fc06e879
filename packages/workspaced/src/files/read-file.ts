/**
 * @module `GET /projects/{id}/files/read`: a whole regular file, bounded in size. The resolved
 * path is opened with O_NOFOLLOW so a symlink swapped in after the containment check is refused.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ApiError } from '../http/api-error.js';
import { fileSystemError } from './fs-errors.js';

export interface FileBytes {
  bytes: Buffer;
  modifiedAt: Date;
}

export async function readRegularFile(real: string, maxBytes: number): Promise<FileBytes> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw fileSystemError(error);
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw new ApiError(400, 'IS_A_DIRECTORY', 'path is a folder, not a file');
    if (!stats.isFile()) throw new ApiError(400, 'NOT_A_REGULAR_FILE', 'path is not a regular file');
    if (stats.size > maxBytes)
      throw new ApiError(413, 'FILE_TOO_LARGE', `the file is larger than the ${maxBytes}-byte read limit`, {
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
      throw new ApiError(413, 'FILE_TOO_LARGE', `the file is larger than the ${maxBytes}-byte read limit`);
    return { bytes: buffer.subarray(0, length), modifiedAt: stats.mtime };
  } finally {
    await handle.close();
  }
}
