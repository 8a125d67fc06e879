/**
 * @module The index on disk: every statistics file's parsed record in one file, so that a
 * restart reads one file and stats the folder instead of reading and parsing 100,000 files.
 * Each record is kept with the file's mtime and size; a file whose mtime or size differs is read
 * again, so the snapshot never changes an answer, it only saves work.
 *
 * Layout: `GSSNAP02`, then per file its values (Float64, little-endian) and key ids (Uint32),
 * padded to 8 bytes; then the table (JSON: server folder, worlds, key names, one row per file);
 * then the table's offset (Float64) and length (Uint32) and `GSSNAPND`. The table comes last so
 * the snapshot is written in one pass, in small steps.
 */
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { allocateStats, type CompactStats } from './compact-stats.js';

/** 02: pre-1.13 files are renamed as the game's 1.13 upgrade does; the records of a 01
 * snapshot hold them under this reader's former names, so a 01 snapshot is not restored. */
const head = Buffer.from('GSSNAP02');
const tail = Buffer.from('GSSNAPND');
const trailerBytes = 8 + 4 + tail.length;
/** Files written between two yields to the event loop. */
const writeBatch = 500;
/** Bytes read from disk at once while restoring. */
const readChunkBytes = 4 * 1024 * 1024;

/** One statistics file as the snapshot knows it. */
export interface SnapshotFile {
  path: string;
  mtimeMs: number;
  size: number;
  error: string | null;
  legacy: boolean;
  stats: CompactStats | null;
}

/** Which server the snapshot belongs to: a snapshot of another folder or worlds is ignored. */
interface SnapshotOwner {
  serverDir: string;
  worlds: readonly string[];
}

interface Table {
  owner: SnapshotOwner;
  /** `[category, key]` by key id. */
  keys: [string, string][];
  folders: string[];
  /** `[folder, file name, mtimeMs, size, entries, error, legacy]`, in data order. */
  files: [number, string, number, number, number, string | null, 0 | 1][];
}

/**
 * Writes the snapshot to `file` (through a temporary file and a rename, mode 0600), yielding to
 * the event loop every few hundred records so a host keeps answering.
 */
export async function writeSnapshot(
  file: string,
  owner: SnapshotOwner,
  keys: readonly (readonly [string, string])[],
  files: Iterable<SnapshotFile>,
): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    let offset = write(fd, head, 0);
    const folders = new Map<string, number>();
    // The table's rows, serialised a batch at a time (one JSON.stringify of 100,000 rows would
    // hold the event loop for tens of milliseconds).
    const rowTexts: string[] = [];
    let rows: Table['files'] = [];
    let batch: SnapshotFile[] = [];
    const flush = () => {
      const bytes = Buffer.from(
        new ArrayBuffer(batch.reduce((sum, entry) => sum + padded(entry.stats?.keyIds.length ?? 0), 0)),
      );
      let at = 0;
      for (const entry of batch) {
        if (!entry.stats) continue;
        const count = entry.stats.keyIds.length;
        new Float64Array(bytes.buffer, at, count).set(entry.stats.values);
        new Uint32Array(bytes.buffer, at + count * 8, count).set(entry.stats.keyIds);
        at += padded(count);
      }
      offset = write(fd, bytes, offset);
      batch = [];
      if (rows.length > 0) rowTexts.push(JSON.stringify(rows).slice(1, -1));
      rows = [];
    };
    for (const entry of files) {
      let folderId = folders.get(path.dirname(entry.path));
      if (folderId === undefined) {
        folderId = folders.size;
        folders.set(path.dirname(entry.path), folderId);
      }
      rows.push([
        folderId,
        path.basename(entry.path),
        entry.mtimeMs,
        entry.size,
        entry.stats ? entry.stats.keyIds.length : -1,
        entry.error,
        entry.legacy ? 1 : 0,
      ]);
      batch.push(entry);
      if (batch.length === writeBatch) {
        flush();
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    flush();
    const tableOffset = offset;
    offset = write(fd, Buffer.from('{"files":['), offset);
    for (const [position, text] of rowTexts.entries()) {
      offset = write(fd, Buffer.from(position === 0 ? text : `,${text}`), offset);
      if (position % 20 === 19) await new Promise((resolve) => setImmediate(resolve));
    }
    const rest: Omit<Table, 'files'> = {
      owner,
      keys: keys.map(([category, key]) => [category, key]),
      folders: [...folders.keys()],
    };
    offset = write(fd, Buffer.from(`],${JSON.stringify(rest).slice(1)}`), offset);
    const trailer = Buffer.alloc(trailerBytes);
    trailer.writeDoubleLE(tableOffset, 0);
    trailer.writeUInt32LE(offset - tableOffset, 8);
    tail.copy(trailer, 12);
    write(fd, trailer, offset);
    closeSync(fd);
    renameSync(temporary, file);
  } catch (error) {
    closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** A snapshot opened for restoring: its key names and a reader of its records in data order. */
interface OpenSnapshot {
  keys: [string, string][];
  /** Every record, in data order; `wanted` says which to load (the others are skipped unread). */
  records(wanted: (file: Omit<SnapshotFile, 'stats'>) => boolean): Generator<SnapshotFile>;
  close(): void;
}

/** Opens `file`; null when it is missing, of another server, or not a snapshot of this format. */
export function openSnapshot(file: string, owner: SnapshotOwner): OpenSnapshot | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const opening = read(fd, 0, head.length);
    const trailer = read(fd, size - trailerBytes, trailerBytes);
    if (!opening.equals(head) || !trailer.subarray(12).equals(tail)) throw new Error('not a snapshot');
    const tableOffset = trailer.readDoubleLE(0);
    const tableLength = trailer.readUInt32LE(8);
    if (tableOffset < head.length || tableOffset + tableLength !== size - trailerBytes)
      throw new Error('bad table position');
    const table = JSON.parse(read(fd, tableOffset, tableLength).toString('utf8')) as Table;
    if (
      table.owner.serverDir !== owner.serverDir ||
      JSON.stringify(table.owner.worlds) !== JSON.stringify(owner.worlds)
    ) {
      closeSync(fd);
      return null;
    }
    return {
      keys: table.keys,
      records: (wanted) => records(fd, table, tableOffset, wanted),
      close: () => closeSync(fd),
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function* records(
  fd: number,
  table: Table,
  dataEnd: number,
  wanted: (file: Omit<SnapshotFile, 'stats'>) => boolean,
): Generator<SnapshotFile> {
  let chunk: Buffer = Buffer.alloc(0);
  let chunkStart = head.length;
  let offset = head.length;
  for (const [folder, name, mtimeMs, size, count, error, legacy] of table.files) {
    const bytes = count > 0 ? padded(count) : 0;
    const start = offset;
    offset += bytes;
    if (offset > dataEnd || table.folders[folder] === undefined) throw new Error('record out of bounds');
    const file = {
      path: path.join(table.folders[folder]!, name),
      mtimeMs,
      size,
      error,
      legacy: legacy === 1,
    };
    if (!wanted(file)) continue;
    if (count < 0) {
      yield { ...file, stats: null };
      continue;
    }
    if (start < chunkStart || offset > chunkStart + chunk.length) {
      chunkStart = start;
      chunk = read(fd, start, Math.min(Math.max(bytes, readChunkBytes), dataEnd - start));
    }
    const at = chunk.byteOffset + start - chunkStart;
    const stats = allocateStats(count);
    stats.values.set(new Float64Array(chunk.buffer, at, count));
    stats.keyIds.set(new Uint32Array(chunk.buffer, at + count * 8, count));
    yield { ...file, stats };
  }
}

/** Bytes of a record of `count` entries, padded so the next record's Float64 values stay aligned. */
function padded(count: number): number {
  return Math.ceil((count * 12) / 8) * 8;
}

function write(fd: number, bytes: Buffer, position: number): number {
  let done = 0;
  while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
  return position + bytes.length;
}

function read(fd: number, position: number, length: number): Buffer {
  // Aligned to 8 so the Float64 views of a record can be cut from it.
  const bytes = Buffer.from(new ArrayBuffer(length));
  let done = 0;
  while (done < length) {
    const got = readSync(fd, bytes, done, length - done, position + done);
    if (got === 0) throw new Error('snapshot truncated');
    done += got;
  }
  return bytes;
}
