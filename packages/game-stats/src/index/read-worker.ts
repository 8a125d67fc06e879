/**
 * @module Worker thread that reads and parses statistics files for the first index build: the
 * parsing garbage lives and dies in the worker's heap (freed when it exits), and two cores
 * parse at once. Results come back as transferable typed arrays with worker-local key ids.
 */
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { parseStatsFile } from '../stats/stats-file.js';
import type { ReadBatch, ReadWorkerInput } from './read-worker-protocol.js';

/** Files per message: large enough to amortise messaging, small enough to show progress. */
const batchSize = 1_000;

const { paths } = workerData as ReadWorkerInput;
const localIds = new Map<string, number>();
let announced = 0;
const keyList: string[] = [];

for (let start = 0; start < paths.length; start += batchSize) {
  const end = Math.min(start + batchSize, paths.length);
  const ids: number[] = [];
  const values: number[] = [];
  const files: ReadBatch['files'] = [];
  for (let index = start; index < end; index++) {
    const path = paths[index]!;
    let text: string;
    let mtimeMs = 0;
    let size = 0;
    let fd: number | undefined;
    try {
      fd = openSync(path, 'r');
      ({ mtimeMs, size } = fstatSync(fd));
      text = readFileSync(fd, 'utf8');
    } catch {
      files.push({ index, mtimeMs, size, missing: true, error: null, legacy: false, start: 0, end: 0 });
      continue;
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
    const parsed = parseStatsFile(text);
    const first = ids.length;
    if (parsed.ok) {
      for (const category in parsed.stats) {
        const entries = parsed.stats[category]!;
        for (const key in entries) {
          const composite = `${category}\u0000${key}`;
          let id = localIds.get(composite);
          if (id === undefined) {
            id = keyList.length;
            localIds.set(composite, id);
            keyList.push(composite);
          }
          ids.push(id);
          values.push(entries[key]!);
        }
      }
    }
    files.push({
      index,
      mtimeMs,
      size,
      missing: false,
      error: parsed.ok ? null : parsed.reason,
      legacy: parsed.ok && parsed.legacy,
      start: first,
      end: ids.length,
    });
  }
  const batch: ReadBatch = {
    newKeys: keyList.slice(announced),
    files,
    ids: Uint32Array.from(ids),
    values: Float64Array.from(values),
  };
  announced = keyList.length;
  parentPort!.postMessage(batch, [batch.ids.buffer, batch.values.buffer]);
}
