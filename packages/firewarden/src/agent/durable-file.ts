/**
 * @module Files that must survive a crash or a power cut: written beside their place, flushed to
 * disk, renamed over it, and the folder flushed so the rename itself is on disk. A reader sees the
 * old content or the new one, never a torn file, and once the call returns the new one stays.
 */
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

export async function writeDurably(file: string, content: string, mode = 0o600): Promise<void> {
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w', mode);
  try {
    await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  await syncFolder(path.dirname(file));
}

export async function removeDurably(file: string): Promise<void> {
  await rm(file, { force: true });
  await syncFolder(path.dirname(file));
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
