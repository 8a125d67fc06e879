/**
 * @module The TCP sockets listening on this host (in the daemon's network namespace), read from
 * `/proc/net/tcp` and `/proc/net/tcp6` (rows in state `0A`, LISTEN), each with the process that
 * owns it: the socket's inode is looked up among the `socket:[inode]` links of every
 * `/proc/<pid>/fd` the daemon may read (its own user's processes; all of them when it runs as
 * root). A socket of another user's process answers `process: null`.
 */

import { readdir, readFile, readlink } from 'node:fs/promises';
import { endianness } from 'node:os';
import { readProcessTable } from '../terminals/agents/process-tree.js';

/** proc(5): `st` of a listening TCP socket. */
const listenState = '0A';

interface ListeningSocket {
  protocol: 'tcp' | 'tcp6';
  address: string;
  port: number;
  inode: number;
  uid: number;
  process: { pid: number; name: string; command: string[] } | null;
}

/**
 * The kernel prints each 32-bit word of the address in host byte order, so on little-endian
 * machines every group of 8 hex digits is reversed byte by byte.
 */
function wordBytes(hex: string): number[] {
  const bytes = [0, 2, 4, 6].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return endianness() === 'LE' ? bytes.reverse() : bytes;
}

export function decodeAddress(hex: string): string {
  if (hex.length === 8) return wordBytes(hex).join('.');
  const bytes = [0, 8, 16, 24].flatMap((at) => wordBytes(hex.slice(at, at + 8)));
  const groups = [];
  for (let at = 0; at < 16; at += 2) groups.push(((bytes[at]! << 8) | bytes[at + 1]!).toString(16));
  if (groups.slice(0, 5).every((group) => group === '0') && groups[5] === 'ffff')
    return `::ffff:${bytes.slice(12).join('.')}`;
  return compressIpv6(groups);
}

/** RFC 5952: the longest run (two or more) of zero groups becomes `::`. */
function compressIpv6(groups: string[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < groups.length; ) {
    let end = start;
    while (end < groups.length && groups[end] === '0') end++;
    if (end - start > bestLength) [bestStart, bestLength] = [start, end - start];
    start = end === start ? start + 1 : end;
  }
  if (bestStart < 0) return groups.join(':');
  return `${groups.slice(0, bestStart).join(':')}::${groups.slice(bestStart + bestLength).join(':')}`;
}

type SocketRow = Omit<ListeningSocket, 'process'>;

/** Rows of one `/proc/net/tcp*` file in LISTEN state; a missing file (no IPv6) gives none. */
async function readListenRows(protocol: 'tcp' | 'tcp6'): Promise<SocketRow[]> {
  const text = await readFile(`/proc/net/${protocol}`, 'utf8').catch(() => '');
  const rows: SocketRow[] = [];
  for (const line of text.split('\n').slice(1)) {
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10 || fields[3] !== listenState) continue;
    const [address, port] = fields[1]!.split(':');
    if (!address || !port) continue;
    rows.push({
      protocol,
      address: decodeAddress(address),
      port: Number.parseInt(port, 16),
      uid: Number(fields[7]),
      inode: Number(fields[9]),
    });
  }
  return rows;
}

/** The socket inodes one process holds open (none when its fd folder is not ours to read). */
async function socketInodes(pid: number): Promise<number[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  const targets = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')));
  return targets
    .filter((target) => target.startsWith('socket:['))
    .map((target) => Number(target.slice(8, -1)));
}

/** Socket inode -> lowest pid holding it (a forked server shares its socket with children). */
async function socketOwners(inodes: ReadonlySet<number>): Promise<Map<number, number>> {
  const names = await readdir('/proc').catch(() => [] as string[]);
  const pids = names
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const held = await Promise.all(pids.map(socketInodes));
  const owners = new Map<number, number>();
  pids.forEach((pid, index) => {
    for (const inode of held[index]!) if (inodes.has(inode) && !owners.has(inode)) owners.set(inode, pid);
  });
  return owners;
}

/** Every listening TCP socket, sorted by port then address. */
export async function listListeningSockets(): Promise<ListeningSocket[]> {
  const rows = (await Promise.all([readListenRows('tcp'), readListenRows('tcp6')])).flat();
  const owners = await socketOwners(new Set(rows.map((row) => row.inode)));
  const table = owners.size > 0 ? await readProcessTable() : [];
  const byPid = new Map(table.map((entry) => [entry.pid, entry]));
  return rows
    .map((row) => {
      const entry = byPid.get(owners.get(row.inode) ?? -1);
      return {
        ...row,
        process: entry ? { pid: entry.pid, name: entry.comm, command: entry.argv.slice(0, 8) } : null,
      };
    })
    .sort((a, b) => a.port - b.port || a.address.localeCompare(b.address));
}
