/**
 * @module Worker thread that reads and parses statistics files for the first index build: the
 * parsing garbage lives and dies in the worker's heap (freed when it exits), and two cores
 * parse at once. Results come back as transferable typed arrays with worker-local key ids.
 * From a cold page cache, prefetch workers read ahead of it (see prefetch-worker.ts).
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { CanonicalStatsReader } from '../stats/canonical-stats.js';
import { parseStatsFile } from '../stats/stats-file.js';
import type { ReadBatch, ReadWorkerInput } from './read-worker-protocol.js';

/** Files per message: large enough to amortise messaging, small enough to show progress. */
const batchSize = 1_000;

const { paths } = workerData as ReadWorkerInput;
/** Hands out the local key ids, announced in `newKeys` (`reader.keyNames` in id order). */
const reader = new CanonicalStatsReader();
let announced = 0;

// The batch's entries, appended in place (about 76 per file).
let ids = new Uint32Array(1 << 17);
let values = new Float64Array(1 << 17);
let length = 0;
let files: ReadBatch['files'] = [];

function send() {
  const batch: ReadBatch = {
    newKeys: reader.keyNames.slice(announced),
    files,
    ids: ids.slice(0, length),
    values: values.slice(0, length),
  };
  announced = reader.keyNames.length;
  parentPort!.postMessage(batch, [batch.ids.buffer, batch.values.buffer]);
  length = 0;
  files = [];
}

/** Room for `more` entries in the batch. */
function reserve(more: number) {
  if (length + more <= ids.length) return;
  const capacity = Math.max(ids.length * 2, length + more);
  const moreIds = new Uint32Array(capacity);
  moreIds.set(ids.subarray(0, length));
  ids = moreIds;
  const moreValues = new Float64Array(capacity);
  moreValues.set(values.subarray(0, length));
  values = moreValues;
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

function record(index: number, read: { mtimeMs: number; size: number; text: string } | null) {
  if (!read) {
    files.push({ index, mtimeMs: 0, size: 0, missing: true, error: null, legacy: false, start: 0, end: 0 });
  } else {
    const first = length;
    let error: string | null = null;
    let legacy = false;
    if (reader.read(read.text)) {
      reserve(reader.count);
      ids.set(reader.ids.subarray(0, reader.count), length);
      values.set(reader.values.subarray(0, reader.count), length);
      length += reader.count;
    } else {
      const parsed = parseStatsFile(read.text);
      if (parsed.ok) {
        legacy = parsed.legacy;
        for (const category in parsed.stats) {
          const entries = parsed.stats[category]!;
          for (const key in entries) {
            reserve(1);
            ids[length] = reader.idOf(category, key);
            values[length++] = entries[key]!;
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
      end: length,
    });
  }
  if (files.length >= batchSize) send();
}

for (let index = 0; index < paths.length; index++) record(index, readOne(paths[index]!));
if (files.length > 0) send();
