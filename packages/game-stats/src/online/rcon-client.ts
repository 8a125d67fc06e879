/**
 * @module A small RCON client: one TCP connection, login, then commands answered in order; long
 * answers arrive in several packets and are joined.
 */
import { Socket } from 'node:net';
import {
  decodeRconPackets,
  encodeRconPacket,
  type RconPacket,
  rconAuthFailedId,
  rconMaxRequestBytes,
  rconMaxResponsePayload,
  rconPacketType,
} from './rcon-protocol.js';

interface RconClientOptions {
  host: string;
  port: number;
  password: string;
  timeoutMs: number;
}

/** How long to wait for a further chunk after a full-size one. */
const continuationWaitMs = 100;

class RconError extends Error {}

export class RconClient {
  private socket: Socket | undefined;
  private buffer: Buffer = Buffer.alloc(0);
  private nextId = 1;
  private waiter: ((packet: RconPacket | Error) => void) | undefined;
  private queued: RconPacket[] = [];

  constructor(private readonly options: RconClientOptions) {}

  get connected(): boolean {
    return this.socket !== undefined && !this.socket.destroyed;
  }

  async connect(): Promise<void> {
    this.close();
    const socket = new Socket();
    this.socket = socket;
    this.buffer = Buffer.alloc(0);
    this.queued = [];
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.onData(chunk));
    socket.on('error', (error) => this.fail(error));
    socket.on('close', () => this.fail(new RconError('connection closed')));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new RconError('connect timed out')), this.options.timeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.connect(this.options.port, this.options.host);
    });
    const id = this.send(rconPacketType.login, this.options.password);
    for (;;) {
      const answer = await this.receive();
      // Source servers send an empty response before the login answer; the game does not.
      if (answer.type === rconPacketType.response && answer.id === id) continue;
      if (answer.id === rconAuthFailedId) throw new RconError('RCON login refused (wrong rcon.password)');
      if (answer.id === id) return;
    }
  }

  /** Runs a command and returns its whole output. */
  async command(text: string): Promise<string> {
    if (!this.connected) throw new RconError('not connected');
    const id = this.send(rconPacketType.command, text);
    let output = '';
    for (;;) {
      const packet = await this.receive(output === '' ? this.options.timeoutMs : continuationWaitMs).catch(
        (error: unknown) => {
          if (output !== '' && error instanceof RconError && error.message === 'timed out') return undefined;
          throw error;
        },
      );
      if (!packet) return output;
      if (packet.id !== id) continue;
      output += packet.payload;
      if (Buffer.byteLength(packet.payload) < rconMaxResponsePayload) return output;
    }
  }

  close(): void {
    const socket = this.socket;
    this.socket = undefined;
    socket?.destroy();
  }

  private send(type: number, payload: string): number {
    const id = this.nextId++;
    const packet = encodeRconPacket({ id, type, payload });
    if (packet.length > rconMaxRequestBytes) throw new RconError('RCON request too long');
    this.socket?.write(packet);
    return id;
  }

  private receive(timeoutMs = this.options.timeoutMs): Promise<RconPacket> {
    const ready = this.queued.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new RconError('timed out'));
      }, timeoutMs);
      this.waiter = (packet) => {
        clearTimeout(timer);
        this.waiter = undefined;
        if (packet instanceof Error) reject(packet);
        else resolve(packet);
      };
    });
  }

  private onData(chunk: Buffer) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    let decoded: ReturnType<typeof decodeRconPackets>;
    try {
      decoded = decodeRconPackets(this.buffer);
    } catch (error) {
      this.fail(error as Error);
      this.close();
      return;
    }
    this.buffer = decoded.rest;
    for (const packet of decoded.packets) {
      if (this.waiter) this.waiter(packet);
      else this.queued.push(packet);
    }
  }

  private fail(error: Error) {
    this.waiter?.(error);
  }
}
