/**
 * @module Reads many statistics files on worker threads (one per core, at most four) and hands
 * each result back with global key ids, for the first build of a large index.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { allocateStats, type CompactStats } from './compact-stats.js';
import type { ReadBatch } from './read-worker-protocol.js';
import type { StatKeyTable } from './stat-key-table.js';

const workerUrl = new URL('./read-worker.js', import.meta.url);
const maxWorkers = 4;

export interface ParallelReadResult {
  mtimeMs: number;
  size: number;
  missing: boolean;
  error: string | null;
  legacy: boolean;
  stats: CompactStats | null;
}

/** Whether the compiled worker is present (it is not when running from TypeScript sources). */
export function parallelReadAvailable(): boolean {
  return existsSync(fileURLToPath(workerUrl));
}

export async function readInParallel(
  paths: readonly string[],
  table: StatKeyTable,
  onResult: (position: number, result: ParallelReadResult) => void,
): Promise<void> {
  const count = Math.max(1, Math.min(maxWorkers, availableParallelism(), Math.ceil(paths.length / 1_000)));
  const share = Math.ceil(paths.length / count);
  await Promise.all(
    Array.from({ length: count }, (_, worker) =>
      runWorker(paths.slice(worker * share, (worker + 1) * share), worker * share, table, onResult),
    ),
  );
}

function runWorker(
  paths: string[],
  offset: number,
  table: StatKeyTable,
  onResult: (position: number, result: ParallelReadResult) => void,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (paths.length === 0) return resolve();
    const worker = new Worker(workerUrl, {
      workerData: { paths },
      // A small young generation keeps each worker (and the peak RSS of the build) small; the
      // parse garbage of one batch of files still dies young.
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    const globalIds: number[] = [];
    worker.on('message', (batch: ReadBatch) => {
      for (const composite of batch.newKeys) {
        const separator = composite.indexOf('\u0000');
        globalIds.push(table.intern(composite.slice(0, separator), composite.slice(separator + 1)));
      }
      for (const file of batch.files) {
        onResult(offset + file.index, {
          mtimeMs: file.mtimeMs,
          size: file.size,
          missing: file.missing,
          error: file.error,
          legacy: file.legacy,
          stats: file.missing || file.error ? null : toGlobal(batch, file.start, file.end, globalIds),
        });
      }
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`read worker exited with ${code}`)),
    );
  });
}

/** Entries of one file beyond this many would collide in the packed sort key below. */
const maxEntriesPerFile = 65_536;

/** One file's entries with global ids, sorted by id as CompactStats requires. */
function toGlobal(batch: ReadBatch, start: number, end: number, globalIds: number[]): CompactStats {
  const length = Math.min(end - start, maxEntriesPerFile);
  // Pack (global id, position) into one number so the native numeric sort does the work.
  const packed = new Float64Array(length);
  for (let index = 0; index < length; index++) {
    packed[index] = globalIds[batch.ids[start + index]!]! * maxEntriesPerFile + index;
  }
  packed.sort();
  const { keyIds, values } = allocateStats(length);
  for (let index = 0; index < length; index++) {
    const entry = packed[index]! % maxEntriesPerFile;
    keyIds[index] = (packed[index]! - entry) / maxEntriesPerFile;
    values[index] = batch.values[start + entry]!;
  }
  return { keyIds, values };
}
