/**
 * @module Maps Node file-system errors to the daemon's JSON errors; anything unexpected is
 * passed on untouched (it becomes a logged 500 without details).
 */
import { ApiError } from '../http/api-error.js';

export function fileSystemError(error: unknown): unknown {
  switch ((error as NodeJS.ErrnoException).code) {
    case 'ENOENT':
      return new ApiError('FILE_NOT_FOUND', 'no such file or folder');
    case 'ENOTDIR':
      return new ApiError('NOT_A_DIRECTORY', 'a path component is a file, not a folder');
    case 'EISDIR':
      return new ApiError('IS_A_DIRECTORY', 'path is a folder, not a file');
    case 'ENOTEMPTY':
    case 'EEXIST':
      return new ApiError('DIRECTORY_NOT_EMPTY', 'the folder is not empty');
    case 'ELOOP':
      return new ApiError('PATH_OUTSIDE_ROOT', 'path is a symlink that cannot be followed here');
    case 'EACCES':
    case 'EPERM':
      return new ApiError('FILE_ACCESS_DENIED', 'the daemon is not allowed to do this on that path');
    case 'ENOSPC':
      return new ApiError('NO_SPACE', 'the disk is full');
    default:
      return error;
  }
}
