/**
 * @module Temporary folders a test file makes, removed together in its afterAll.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

export async function scratchDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `workspaced-${prefix}-`));
  made.push(dir);
  return dir;
}

export async function removeScratchDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}
