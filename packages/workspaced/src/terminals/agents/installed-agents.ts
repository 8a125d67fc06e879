/**
 * @module Where each known coding agent (agent-identity.ts) is installed: the first executable
 * file of that name in a folder of the daemon's `PATH`, as `which` finds it (relative folders
 * are skipped). A terminal's shell may read a longer `PATH` (a login profile adding
 * `~/.local/bin`), so "not found" means "not on the daemon's PATH".
 */
import { access, constants, stat } from 'node:fs/promises';
import path from 'node:path';
import { knownAgents } from './agent-identity.js';

interface KnownAgent {
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

/** The first executable `name` in an absolute folder of `searchPath` (an absolute `name` is checked as is). */
export async function findOnPath(name: string, searchPath = process.env.PATH ?? ''): Promise<string | null> {
  if (path.isAbsolute(name)) return (await executable(name)) ? name : null;
  const folders = new Set(searchPath.split(path.delimiter).filter((folder) => path.isAbsolute(folder)));
  for (const folder of folders) {
    const file = path.join(folder, name);
    if (await executable(file)) return file;
  }
  return null;
}

export async function knownAgentPaths(searchPath = process.env.PATH ?? ''): Promise<KnownAgent[]> {
  return Promise.all(knownAgents.map(async (name) => ({ name, path: await findOnPath(name, searchPath) })));
}
