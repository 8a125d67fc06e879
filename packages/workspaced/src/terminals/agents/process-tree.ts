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
}

/** `/proc/<pid>/stat`: `pid (comm) state ppid ...`; comm may hold spaces and parentheses. */
function parseStat(text: string): { comm: string; ppid: number } | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  const ppid = Number(text.slice(close + 2).split(' ', 2)[1]);
  return Number.isInteger(ppid) ? { comm: text.slice(open + 1, close), ppid } : undefined;
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
