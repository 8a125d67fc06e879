/**
 * @module Reads many statistics files on worker threads (one per core, at most four) and hands
 * each result back with global key ids, for the first build of a large index.
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CompactStats } from './compact-stats.js';
import { LocalKeyIds, packWithGlobalIds } from './local-key-ids.js';
import type { ReadBatch, ReadWorkerInput } from './read-worker-protocol.js';
import type { StatKeyTable } from './stat-key-table.js';

const workerUrl = new URL('./read-worker.js', import.meta.url);
const maxWorkers = 4;

const prefetchUrl = new URL('./prefetch-worker.js', import.meta.url);
/** Prefetch workers started when the files are not in the page cache (reads in flight). */
const prefetchers = 8;
/** Files read to tell a cold page cache from a warm one, and the mean read time that means cold. */
const probeFiles = 16;
const coldReadMs = 0.25;

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
  const slices = Array.from({ length: count }, (_, worker) =>
    paths.slice(worker * share, (worker + 1) * share),
  );
  const prefetching = pageCacheIsCold(paths) ? startPrefetch(slices, share) : [];
  try {
    await Promise.all(slices.map((slice, worker) => runWorker(slice, worker * share, table, onResult)));
  } finally {
    for (const prefetcher of prefetching) void prefetcher.terminate();
  }
}

/**
 * Whether reading the files will wait for the disk: a few of them, spread over the list, are
 * read now and timed (tens of microseconds each from the page cache, about a millisecond from
 * a virtual disk).
 */
function pageCacheIsCold(paths: readonly string[]): boolean {
  const sample = Math.min(probeFiles, paths.length);
  const started = performance.now();
  for (let probe = 0; probe < sample; probe++) {
    try {
      readFileSync(paths[Math.floor((probe * paths.length) / sample)]!);
    } catch {
      // Vanished: counted as read.
    }
  }
  return (performance.now() - started) / Math.max(1, sample) > coldReadMs;
}

/**
 * Starts the prefetch workers on the files in the order the read workers will ask for them
 * (the first file of each slice, then the second...), dealt out round-robin, so they stay ahead
 * of the parsing with many reads in flight. Best effort: a prefetcher that fails is ignored.
 */
function startPrefetch(slices: readonly string[][], share: number): Worker[] {
  if (!existsSync(fileURLToPath(prefetchUrl))) return [];
  const lists: string[][] = Array.from({ length: prefetchers }, () => []);
  let dealt = 0;
  for (let position = 0; position < share; position++) {
    for (const slice of slices) {
      if (position < slice.length) lists[dealt++ % prefetchers]!.push(slice[position]!);
    }
  }
  return lists.map((list) => {
    const worker = new Worker(prefetchUrl, {
      workerData: { paths: list },
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 32 },
    });
    worker.on('error', () => {});
    return worker;
  });
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
      workerData: { paths } satisfies ReadWorkerInput,
      // A small young generation keeps each worker (and the peak RSS of the build) small; the
      // parse garbage of one batch of files still dies young.
      resourceLimits: { maxYoungGenerationSizeMb: 16 },
    });
    const keyIds = new LocalKeyIds(table);
    worker.on('message', (batch: ReadBatch) => {
      keyIds.learn(batch.newKeys);
      for (const file of batch.files) {
        onResult(offset + file.index, {
          mtimeMs: file.mtimeMs,
          size: file.size,
          missing: file.missing,
          error: file.error,
          legacy: file.legacy,
          stats:
            file.missing || file.error
              ? null
              : packWithGlobalIds(batch.ids, batch.values, file.start, file.end, keyIds.global),
        });
      }
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`read worker exited with ${code}`)),
    );
  });
}
