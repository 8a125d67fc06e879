/**
 * @module The daemon's own data (its database with password and session hashes) is never served
 * or changed through a project, even when a project folder contains the data dir (a project at
 * the home folder holds `~/.workspaced`). Task worktrees below the data dir stay reachable.
 */
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { isInside } from './rooted-path.js';

export function isReserved(dataDir: string, real: string): boolean {
  return isInside(dataDir, real) && !isInside(path.join(dataDir, 'worktrees'), real);
}

export function refuseReserved(dataDir: string, ...reals: string[]): void {
  if (reals.some((real) => isReserved(dataDir, real)))
    throw new ApiError('PATH_RESERVED', "the daemon's data folder is not reachable through a project");
}

/**
 * `.git` folders (the repository's, a submodule's) are read-only through the file routes: its
 * config and hooks name programs git would run as the daemon. Checked on the resolved path,
 * so a symlink pointing into `.git` does not get around it.
 */
export function refuseGitMetadata(root: string, ...reals: string[]): void {
  for (const real of reals) {
    const parts = path.relative(root, real).split(path.sep);
    if (parts.some((part) => part.toLowerCase() === '.git'))
      throw new ApiError('PATH_READ_ONLY', 'the .git folder cannot be changed through the file routes');
  }
}
