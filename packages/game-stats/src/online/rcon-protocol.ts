/**
 * @module The Source RCON wire format the game speaks (wiki.vg/RCON): little-endian int32
 * length, request id and type, an ASCII payload and two NUL bytes.
 */

export const rconPacketType = {
  /** Server to client: command output. */
  response: 0,
  /** Client to server: run a command; server to client: login answer. */
  command: 2,
  login: 3,
} as const;

/** Id the server answers a refused login with. */
export const rconAuthFailedId = -1;
/** The game refuses requests longer than this (payload plus header). */
export const rconMaxRequestBytes = 1460;
/** The game splits long responses into payloads of at most this many bytes. */
export const rconMaxResponsePayload = 4096;
/** id + type + two NUL terminators. */
const headerAndTerminators = 10;

export interface RconPacket {
  id: number;
  type: number;
  payload: string;
}

export function encodeRconPacket(packet: RconPacket): Buffer {
  const body = Buffer.from(packet.payload, 'utf8');
  const buffer = Buffer.alloc(4 + headerAndTerminators + body.length);
  buffer.writeInt32LE(headerAndTerminators + body.length, 0);
  buffer.writeInt32LE(packet.id, 4);
  buffer.writeInt32LE(packet.type, 8);
  body.copy(buffer, 12);
  return buffer;
}

/** Splits complete packets off the front of `buffer`; returns them and the unread rest. */
export function decodeRconPackets(buffer: Buffer): { packets: RconPacket[]; rest: Buffer } {
  const packets: RconPacket[] = [];
  let offset = 0;
  while (buffer.length - offset >= 4) {
    const length = buffer.readInt32LE(offset);
    if (length < headerAndTerminators || length > rconMaxResponsePayload + headerAndTerminators + 4096) {
      throw new Error(`invalid RCON packet length ${length}`);
    }
    if (buffer.length - offset - 4 < length) break;
    const start = offset + 4;
    packets.push({
      id: buffer.readInt32LE(start),
      type: buffer.readInt32LE(start + 4),
      payload: buffer.toString('utf8', start + 8, start + length - 2),
    });
    offset = start + length;
  }
  return { packets, rest: buffer.subarray(offset) };
}
