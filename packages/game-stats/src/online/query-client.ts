/**
 * @module Client of the game's UDP Query protocol (wiki.vg/Query): handshake for a challenge
 * token, then a full stat that lists every online player by name.
 */
import { createSocket } from 'node:dgram';
import type { OnlineList } from './list-output.js';

const magic = [0xfe, 0xfd];
const packetType = { handshake: 9, stat: 0 } as const;
/** Session ids must only use the low nibble of each byte. */
const sessionMask = 0x0f0f0f0f;
const playerSectionMarker = Buffer.from('\x00\x01player_\x00\x00', 'latin1');

interface QueryOptions {
  host: string;
  port: number;
  timeoutMs: number;
}

interface QueryResult extends OnlineList {
  version: string | null;
}

/** Runs one handshake + full stat exchange. */
export async function queryFullStat(options: QueryOptions): Promise<QueryResult> {
  const socket = createSocket(options.host.includes(':') ? 'udp6' : 'udp4');
  const sessionId = (Math.floor(Math.random() * 0x7fffffff) & sessionMask) >>> 0;
  const exchange = (request: Buffer) =>
    new Promise<Buffer>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('query timed out')), options.timeoutMs);
      socket.once('message', (message) => {
        clearTimeout(timer);
        resolve(message);
      });
      socket.send(request, options.port, options.host, (error) => {
        if (error) {
          clearTimeout(timer);
          reject(error);
        }
      });
    });
  try {
    const handshake = await exchange(header(packetType.handshake, sessionId));
    // parseInt stops at the NUL terminator.
    const token = Number.parseInt(handshake.toString('latin1', 5), 10);
    if (Number.isNaN(token)) throw new Error('query handshake answer holds no challenge token');
    const request = Buffer.concat([header(packetType.stat, sessionId), Buffer.alloc(8)]);
    request.writeInt32BE(token | 0, 7);
    return parseFullStat(await exchange(request));
  } finally {
    socket.close();
  }
}

function header(type: number, sessionId: number): Buffer {
  const buffer = Buffer.from([...magic, type, 0, 0, 0, 0]);
  buffer.writeUInt32BE(sessionId, 3);
  return buffer;
}

/** Parses a full stat answer: type + session id, 11 bytes of padding, K/V pairs, then players. */
export function parseFullStat(answer: Buffer): QueryResult {
  const body = answer.subarray(5 + 11);
  const split = body.indexOf(playerSectionMarker);
  if (split === -1) throw new Error('query answer holds no player section');
  const fields = body.toString('utf8', 0, split).split('\0');
  const values = new Map<string, string>();
  for (let index = 0; index + 1 < fields.length; index += 2) values.set(fields[index]!, fields[index + 1]!);
  const names = body
    .toString('utf8', split + playerSectionMarker.length)
    .split('\0')
    .filter((name) => name !== '');
  const max = Number(values.get('maxplayers'));
  return {
    online: names.length,
    max: Number.isFinite(max) ? max : null,
    players: names.map((name) => ({ name })),
    version: values.get('version') ?? null,
  };
}
