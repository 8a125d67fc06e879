/**
 * @module The history on disk: one gzip'd JSON file per periodic snapshot, `<time>.json.gz` in
 * the history folder. The oldest file is full (every player's values); each later one holds only
 * what changed since the one before (the players whose statistics moved, and of those only the
 * keys whose value changed; a key that disappeared is written as 0). Files are written through
 * a temporary file and a rename, mode 0600.
 */
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);
const fileSuffix = '.json.gz';
/** Players serialised between two yields to the event loop. */
const playersPerStep = 2_000;

/** One snapshot file's content: key names are numbered per file. */
export interface HistoryFile {
  time: number;
  /** True when `players` holds every player's complete values (the oldest file). */
  full: boolean;
  keys: [category: string, key: string][];
  /** `[uuid, [keyNumber, value, keyNumber, value, ...]]`. */
  players: [string, number[]][];
}

/** Writes one snapshot; returns its size in bytes. */
export async function writeHistoryFile(folder: string, file: HistoryFile): Promise<number> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // The rows are serialised a step at a time: one JSON.stringify of a full snapshot of 100,000
  // players would hold the event loop for a second.
  const parts = [`{"time":${file.time},"full":${file.full},"keys":${JSON.stringify(file.keys)},"players":[`];
  for (let start = 0; start < file.players.length; start += playersPerStep) {
    const rows = file.players.slice(start, start + playersPerStep).map((row) => JSON.stringify(row));
    parts.push((start > 0 ? ',' : '') + rows.join(','));
    await nextTurn();
  }
  parts.push(']}');
  const bytes = await gzipAsync(Buffer.from(parts.join('')));
  const target = path.join(folder, `${file.time}${fileSuffix}`);
  const temporary = `${target}.${process.pid}.tmp`;
  await writeFile(temporary, bytes, { mode: 0o600 });
  await rename(temporary, target);
  return bytes.length;
}

/** Times and sizes of the snapshot files in `folder`, oldest first (none when it is missing). */
export async function listHistoryFiles(folder: string): Promise<{ time: number; bytes: number }[]> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return [];
  }
  const files: { time: number; bytes: number }[] = [];
  for (const name of names) {
    const time = Number(name.slice(0, -fileSuffix.length));
    if (!name.endsWith(fileSuffix) || !Number.isSafeInteger(time)) continue;
    files.push({ time, bytes: (await stat(path.join(folder, name))).size });
  }
  return files.sort((a, b) => a.time - b.time);
}

export async function readHistoryFile(folder: string, time: number): Promise<HistoryFile> {
  const text = (await gunzipAsync(await readFile(path.join(folder, `${time}${fileSuffix}`)))).toString(
    'utf8',
  );
  const file = await parseHistoryText(text);
  if (file.time !== time || !Array.isArray(file.keys) || !Array.isArray(file.players))
    throw new Error('not a history snapshot');
  return file;
}

/** A snapshot file's text, parsed in steps when `writeHistoryFile` laid it out, whole otherwise. */
export async function parseHistoryText(text: string): Promise<HistoryFile> {
  return (await parseRowsInSteps(text)) ?? (JSON.parse(text) as HistoryFile);
}

const playersStart = ',"players":[';

/**
 * Parses a file as `writeHistoryFile` lays it out, `playersPerStep` rows between two yields: one
 * `JSON.parse` of the full snapshot (about 21 MB at 100,000 players) would hold the event loop
 * for a few hundred milliseconds. A row is `["uuid",[n,...]]`, so `]]` ends it and nothing before
 * that end can contain `]]` (an escaped string cannot hold the quote that starts the next key).
 * Answers `undefined` for any other layout, which the caller then parses in one go.
 */
async function parseRowsInSteps(text: string): Promise<HistoryFile | undefined> {
  const headerEnd = text.indexOf(playersStart);
  if (headerEnd < 0 || !text.endsWith(']}')) return undefined;
  let header: Omit<HistoryFile, 'players'>;
  try {
    header = JSON.parse(`${text.slice(0, headerEnd)}}`);
  } catch {
    return undefined;
  }
  const players: HistoryFile['players'] = [];
  const bodyEnd = text.length - 2;
  let start = headerEnd + playersStart.length;
  while (start < bodyEnd) {
    let end = start;
    for (let rows = 0; rows < playersPerStep && end < bodyEnd; rows++) {
      const rowEnd = text.indexOf(']]', end);
      if (rowEnd < 0 || rowEnd >= bodyEnd) return undefined;
      end = rowEnd + 2;
      if (end < bodyEnd && text[end] === ',') end++;
    }
    let rows: HistoryFile['players'];
    try {
      rows = JSON.parse(`[${text.slice(start, text[end - 1] === ',' ? end - 1 : end)}]`);
    } catch {
      return undefined;
    }
    for (const row of rows) players.push(row);
    start = end;
    await nextTurn();
  }
  return { ...header, players };
}

export async function removeHistoryFile(folder: string, time: number): Promise<void> {
  await rm(path.join(folder, `${time}${fileSuffix}`), { force: true });
}
