/**
 * @module How the first build reads the files the snapshot could not restore: on worker threads
 * for many files, else in batches on the event loop; with progress at most once a second.
 */
import type { LocatedFile } from './indexed-player.js';
import { type ParallelReadResult, parallelReadAvailable, readInParallel } from './parallel-read.js';
import type { StatKeyTable } from './stat-key-table.js';

/** Files read between two yields to the event loop. */
const readBatchSize = 500;
const progressEveryMs = 1_000;

interface FirstReadOptions {
  keys: StatKeyTable;
  /** From this many files on, the files are read on worker threads. */
  parallelReadMinFiles: number;
  /** Records a result read on a worker thread. */
  apply: (file: LocatedFile, result: ParallelReadResult) => void;
  /** Reads one file on the event loop and records it. */
  read: (file: LocatedFile) => void;
  /** Called with the number of files read so far. */
  progress: (done: number) => void;
}

export async function readEveryFile(files: LocatedFile[], options: FirstReadOptions): Promise<void> {
  if (files.length >= options.parallelReadMinFiles && parallelReadAvailable()) {
    let done = 0;
    await readInParallel(
      files.map((file) => file.path),
      options.keys,
      (position, result) => {
        options.apply(files[position]!, result);
        options.progress(++done);
      },
    );
    return;
  }
  for (let start = 0; start < files.length; start += readBatchSize) {
    const end = Math.min(start + readBatchSize, files.length);
    for (let position = start; position < end; position++) options.read(files[position]!);
    options.progress(end);
    // Let a host's event loop breathe between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Calls `onProgress` at most once a second. */
export function throttledProgress(total: number, onProgress?: (done: number, total: number) => void) {
  let lastReport = Date.now();
  return (done: number) => {
    if (!onProgress || Date.now() - lastReport < progressEveryMs) return;
    lastReport = Date.now();
    onProgress(done, total);
  };
}
