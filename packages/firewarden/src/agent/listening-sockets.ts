/**
 * @module The sockets listening in the agent's network namespace, from `/proc/net/{tcp,tcp6,udp,
 * udp6}` (TCP in LISTEN, UDP unconnected), with the process holding each (the `socket:[inode]`
 * links of `/proc/<pid>/fd`, readable by root). Read by the agent, never by the server.
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import type { Family } from '../engine/addresses.js';

interface ListeningSocket {
  protocol: 'tcp' | 'udp';
  family: Family;
  address: string;
  port: number;
  process: string | null;
}

const tcpListen = '0A';
const udpUnconnected = '07';

/** `0100007F` -> 127.0.0.1; IPv6 is four such little-endian words. */
export function procAddress(hex: string, family: Family): string {
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((word) =>
    (word.match(/../g) ?? []).reverse().map((b) => Number.parseInt(b, 16)),
  );
  if (family === 'ipv4') return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((((bytes[i] ?? 0) << 8) | (bytes[i + 1] ?? 0)).toString(16));
  // The URL parser prints an IPv6 address in its canonical shortest form.
  return new URL(`http://[${groups.join(':')}]/`).hostname.slice(1, -1);
}

export function parseProcNet(
  text: string,
  protocol: 'tcp' | 'udp',
  family: Family,
): (Omit<ListeningSocket, 'process'> & { inode: string })[] {
  return text
    .split('\n')
    .slice(1)
    .flatMap((line) => {
      const fields = line.trim().split(/\s+/);
      const [local, remote, state, inode] = [fields[1], fields[2], fields[3], fields[9]];
      if (local === undefined || remote === undefined || inode === undefined) return [];
      const listening = protocol === 'tcp' ? state === tcpListen : state === udpUnconnected;
      if (!listening || !remote.endsWith(':0000')) return [];
      const [addressHex = '', portHex = ''] = local.split(':');
      return [
        {
          protocol,
          family,
          address: procAddress(addressHex, family),
          port: Number.parseInt(portHex, 16),
          inode,
        },
      ];
    });
}

/**
 * inode -> command name for the `wanted` sockets: every process's fds are walked (the only way to
 * find a socket's holder), so the walk stops once each wanted socket has its process.
 */
async function socketOwners(wanted: ReadonlySet<string>): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const pids = (await readdir('/proc').catch(() => [])).filter((name) => /^\d+$/.test(name));
  for (const pid of pids) {
    if (owners.size === wanted.size) break;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
    let name: string | undefined;
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode === undefined || !wanted.has(inode) || owners.has(inode)) continue;
      name ??= (await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')).trim();
      owners.set(inode, name);
    }
  }
  return owners;
}

export async function readListeningSockets(): Promise<ListeningSocket[]> {
  const tables = [
    ['tcp', 'ipv4', '/proc/net/tcp'],
    ['tcp', 'ipv6', '/proc/net/tcp6'],
    ['udp', 'ipv4', '/proc/net/udp'],
    ['udp', 'ipv6', '/proc/net/udp6'],
  ] as const;
  const found = (
    await Promise.all(
      tables.map(async ([protocol, family, file]) =>
        parseProcNet(await readFile(file, 'utf8').catch(() => ''), protocol, family),
      ),
    )
  ).flat();
  // Inode 0: a socket the kernel holds itself, in no process's fds.
  const owners = await socketOwners(new Set(found.flatMap(({ inode }) => (inode === '0' ? [] : [inode]))));
  const unique = new Map<string, ListeningSocket>();
  for (const { inode, ...socket } of found) {
    unique.set(`${socket.protocol} ${socket.address} ${socket.port}`, {
      ...socket,
      process: owners.get(inode) ?? null,
    });
  }
  return [...unique.values()].sort((a, b) => a.port - b.port || a.protocol.localeCompare(b.protocol));
}
