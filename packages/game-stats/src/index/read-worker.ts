/**
 * @module Worker thread that reads and parses statistics files for the first index build: the
 * parsing garbage lives and dies in the worker's heap (freed when it exits), and two cores
 * parse at once. Results come back as transferable typed arrays with worker-local key ids.
 * From a cold page cache, prefetch workers read ahead of it (see prefetch-worker.ts).
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { parseStatsFile, visitCanonicalStats } from '../stats/stats-file.js';
import type { ReadBatch, ReadWorkerInput } from './read-worker-protocol.js';

/** Files per message: large enough to amortise messaging, small enough to show progress. */
const batchSize = 1_000;

const { paths } = workerData as ReadWorkerInput;
const localIds = new Map<string, Map<string, number>>();
let announced = 0;
const keyList: string[] = [];

let ids: number[] = [];
let values: number[] = [];
let files: ReadBatch['files'] = [];

function send() {
  const batch: ReadBatch = {
    newKeys: keyList.slice(announced),
    files,
    ids: Uint32Array.from(ids),
    values: Float64Array.from(values),
  };
  announced = keyList.length;
  parentPort!.postMessage(batch, [batch.ids.buffer, batch.values.buffer]);
  ids = [];
  values = [];
  files = [];
}

/** Opens, stats and reads one file; null when it vanished or cannot be read. */
function readOne(path: string): { mtimeMs: number; size: number; text: string } | null {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const { mtimeMs, size } = fstatSync(fd);
    return { mtimeMs, size, text: readFileSync(fd, 'utf8') };
  } catch {
    return null;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Local id of a key: one map per category, so no composite string is built per entry. */
function localId(category: string, key: string): number {
  let keys = localIds.get(category);
  if (!keys) {
    keys = new Map();
    localIds.set(category, keys);
  }
  let id = keys.get(key);
  if (id === undefined) {
    id = keyList.length;
    keys.set(key, id);
    keyList.push(`${category}\u0000${key}`);
  }
  return id;
}

function record(index: number, read: { mtimeMs: number; size: number; text: string } | null) {
  if (!read) {
    files.push({ index, mtimeMs: 0, size: 0, missing: true, error: null, legacy: false, start: 0, end: 0 });
  } else {
    const first = ids.length;
    let error: string | null = null;
    let legacy = false;
    if (
      !visitCanonicalStats(read.text, (category, key, value) => {
        ids.push(localId(category, key));
        values.push(value);
      })
    ) {
      ids.length = first;
      values.length = first;
      const parsed = parseStatsFile(read.text);
      if (parsed.ok) {
        legacy = parsed.legacy;
        for (const category in parsed.stats) {
          const entries = parsed.stats[category]!;
          for (const key in entries) {
            ids.push(localId(category, key));
            values.push(entries[key]!);
          }
        }
      } else error = parsed.reason;
    }
    files.push({
      index,
      mtimeMs: read.mtimeMs,
      size: read.size,
      missing: false,
      error,
      legacy,
      start: first,
      end: ids.length,
    });
  }
  if (files.length >= batchSize) send();
}

for (let index = 0; index < paths.length; index++) record(index, readOne(paths[index]!));
if (files.length > 0) send();
