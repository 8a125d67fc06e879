/**
 * @module Containment: turns parsed segments into a real path proven to lie inside the
 * project root. Every existing component is canonicalized with realpath (so a symlink that
 * leads out is caught wherever it sits); a path that does not exist yet is resolved through
 * its nearest existing ancestor. Fails closed on any doubt (dangling links, loops).
 */
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';
import { fileSystemError } from './fs-errors.js';

interface RootedPath {
  /** Canonical absolute path (for a missing path: canonical ancestor plus the missing rest). */
  real: string;
  /** Whether the path exists (following symlinks). */
  exists: boolean;
  /** The path as the client wrote it, normalized (`a/b`, `''` for the root). */
  relative: string;
}

const outside = () => new ApiError('PATH_OUTSIDE_ROOT', 'path resolves outside the project root');

/** `real === root` or strictly below it (a plain prefix test would accept `/root-evil`). */
export function isInside(rootReal: string, real: string): boolean {
  return real === rootReal || real.startsWith(rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep);
}

export async function canonicalRoot(projectPath: string): Promise<string> {
  try {
    return await realpath(projectPath);
  } catch {
    throw new ApiError('PROJECT_ROOT_MISSING', 'the project folder no longer exists');
  }
}

export async function resolveRooted(rootReal: string, segments: readonly string[]): Promise<RootedPath> {
  const relative = segments.join('/');
  for (let existing = segments.length; existing >= 0; existing--) {
    const candidate = path.join(rootReal, ...segments.slice(0, existing));
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        // A dangling symlink exists but cannot be canonicalized: where it leads is unknown.
        if (await existsWithoutFollowing(candidate)) throw outside();
        continue;
      }
      if (code === 'ENOTDIR') throw new ApiError('INVALID_PATH', 'a parent of the path is not a folder');
      if (code === 'ELOOP') throw outside();
      throw fileSystemError(error);
    }
    const full = path.join(real, ...segments.slice(existing));
    if (!isInside(rootReal, real)) throw outside();
    return { real: full, exists: existing === segments.length, relative };
  }
  throw outside();
}

async function existsWithoutFollowing(candidate: string): Promise<boolean> {
  try {
    await lstat(candidate);
    return true;
  } catch {
    return false;
  }
}
