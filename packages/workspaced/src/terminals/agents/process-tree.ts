/**
 * @module The processes below a PID, read from `/proc` (Linux): each one's pid, parent, `comm`
 * and argv. A process that exits while it is read is skipped.
 */
import { readdir, readFile } from 'node:fs/promises';

export interface ProcessEntry {
  pid: number;
  ppid: number;
  comm: string;
  argv: string[];
  /** User plus system CPU time, in clock ticks. */
  cpuTicks: number;
  /** Start time after boot, in clock ticks. */
  startTicks: number;
  /** Resident set size, in pages. */
  rssPages: number;
}

type StatFields = Omit<ProcessEntry, 'pid' | 'argv'>;

/**
 * `/proc/<pid>/stat` (proc(5)): `pid (comm) state ppid ...`; comm may hold spaces and
 * parentheses, so fields are counted from the last `)`: ppid is the 2nd after it, utime and
 * stime the 12th and 13th, starttime the 20th, rss the 22nd.
 */
function parseStat(text: string): StatFields | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const fields = text
    .slice(close + 2)
    .split(' ', 22)
    .map(Number);
  if (fields.length < 22 || fields.slice(1).some((value) => !Number.isFinite(value))) return undefined;
  return {
    comm: text.slice(open + 1, close),
    ppid: fields[1]!,
    cpuTicks: fields[11]! + fields[12]!,
    startTicks: fields[19]!,
    rssPages: fields[21]!,
  };
}

async function readProcess(pid: number): Promise<ProcessEntry | undefined> {
  try {
    const stat = parseStat(await readFile(`/proc/${pid}/stat`, 'utf8'));
    if (!stat) return undefined;
    const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8');
    return { pid, ...stat, argv: cmdline.split('\0').filter((arg) => arg !== '') };
  } catch {
    return undefined;
  }
}

/** Every live process, once (one snapshot serves all terminals of a request). */
export async function readProcessTable(): Promise<ProcessEntry[]> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const pids = names.filter((name) => name.length > 0 && [...name].every((c) => c >= '0' && c <= '9'));
  const entries = await Promise.all(pids.map((name) => readProcess(Number(name))));
  return entries.filter((entry): entry is ProcessEntry => entry !== undefined);
}

/** `root` and all its descendants, parents before children. */
export function descendants(table: readonly ProcessEntry[], root: number): ProcessEntry[] {
  const children = new Map<number, ProcessEntry[]>();
  for (const entry of table) {
    const list = children.get(entry.ppid) ?? [];
    list.push(entry);
    children.set(entry.ppid, list);
  }
  const found: ProcessEntry[] = [];
  const queue = [root];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    for (const child of children.get(pid) ?? []) {
      found.push(child);
      queue.push(child.pid);
    }
  }
  return found;
}
