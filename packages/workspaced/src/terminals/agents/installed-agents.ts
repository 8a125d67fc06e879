/**
 * @module Where each known coding agent (agent-identity.ts) is installed: the first executable
 * file of that name in a folder of the daemon's `PATH`, as `which` finds it (relative folders
 * are skipped). A terminal's shell may read a longer `PATH` (a login profile adding
 * `~/.local/bin`), so "not found" means "not on the daemon's PATH".
 */
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';
import { knownAgents } from './agent-identity.js';

export interface KnownAgent {
  name: string;
  /** The executable found, or null. */
  path: string | null;
}

async function executable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export async function knownAgentPaths(searchPath = process.env.PATH ?? ''): Promise<KnownAgent[]> {
  const folders = [...new Set(searchPath.split(path.delimiter).filter((folder) => path.isAbsolute(folder)))];
  return Promise.all(
    knownAgents.map(async (name) => {
      for (const folder of folders) {
        const file = path.join(folder, name);
        if (await executable(file)) return { name, path: file };
      }
      return { name, path: null };
    }),
  );
}
