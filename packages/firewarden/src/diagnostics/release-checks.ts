/**
 * @module The release tree the root agent runs (`/opt/firewarden/releases`, the folders above it
 * and what `/usr/bin/firewarden` points to) must be root's alone: a file another account owns, or
 * one group or others may write, lets that account run code as root at the agent's next start.
 * Read-only; symbolic links are judged by what they point to, never followed out of the tree.
 */
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import type { InstallLayout } from '../lifecycle/layout.js';
import type { Check } from './check.js';

interface UnsafeEntry {
  path: string;
  uid: number;
  mode: string;
}

/** Entries listed in the check's details at most; the message counts them all. */
const maxListed = 20;

export async function releaseTreeCheck(layout: InstallLayout): Promise<Check> {
  const name = 'release_tree';
  const binTarget = await realpath(layout.binLink).catch(() => null);
  const releases = await lstat(layout.releasesDir).catch(() => null);
  if (!releases && !binTarget) {
    return { name, status: 'ok', message: `no release installed under ${layout.prefix}: nothing to check` };
  }
  // The tree, the folders leading to it and to the bin's target (up to the prefix), the target.
  const paths = new Set<string>();
  const withParents = (file: string) => {
    for (let at = file; isInside(layout.prefix, at); at = path.dirname(at)) paths.add(at);
  };
  withParents(layout.releasesDir);
  if (releases?.isDirectory()) await walk(layout.releasesDir, paths);
  if (binTarget) withParents(binTarget);
  const unsafe: UnsafeEntry[] = [];
  for (const file of paths) {
    const info = await lstat(file).catch(() => null);
    if (!info || info.isSymbolicLink()) continue;
    if (info.uid !== 0 || (info.mode & 0o022) !== 0)
      unsafe.push({ path: file, uid: info.uid, mode: (info.mode & 0o7777).toString(8).padStart(4, '0') });
  }

  if (unsafe.length === 0) {
    return {
      name,
      status: 'ok',
      message: 'the release tree is root-owned and writable by root only',
      details: { releases: layout.releasesDir, bin_target: binTarget },
    };
  }
  const first = unsafe[0]!;
  return {
    name,
    status: 'fail',
    message: `${unsafe.length} path(s) of the release tree the root agent runs are not root-owned or are writable by group or others, e.g. ${first.path} (uid ${first.uid}, mode ${first.mode}): another account can run code as root; run packaging/install.sh again or chown -R root:root and chmod -R go-w them`,
    details: { count: unsafe.length, paths: unsafe.slice(0, maxListed), bin_target: binTarget },
  };
}

/** Whether `file` is below `dir` (not `dir` itself). */
function isInside(dir: string, file: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

async function walk(dir: string, into: Set<string>): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    into.add(full);
    if (entry.isDirectory()) await walk(full, into);
  }
}
