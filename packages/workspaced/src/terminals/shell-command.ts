/**
 * @module Which program a new terminal runs: the requested `shell` (an absolute path or a name
 * looked up in the daemon's PATH) or, by default, the daemon user's `$SHELL`, then `/bin/sh`.
 * Checked before spawning so a typo is a 400, not a terminal that dies at once.
 */
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../http/api-error.js';

async function isExecutable(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function resolveShell(requested: string | undefined): Promise<string> {
  const shell = requested ?? process.env.SHELL ?? '/bin/sh';
  if (shell.includes('/')) {
    if (path.isAbsolute(shell) && (await isExecutable(shell))) return shell;
  } else {
    for (const dir of (process.env.PATH ?? '').split(':')) {
      if (dir && (await isExecutable(path.join(dir, shell)))) return path.join(dir, shell);
    }
  }
  throw new ApiError('SHELL_NOT_FOUND', 'the shell is not an executable absolute path or a program on PATH');
}
