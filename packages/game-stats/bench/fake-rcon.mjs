/**
 * @module A fake game RCON server on loopback speaking the real protocol (wiki.vg/RCON): login
 * with a password (id -1 on refusal), `list` / `list uuids`, long answers split in 4096-byte
 * chunks. Used by the tests and by the live-server benchmark.
 */
import { createServer } from 'node:net';

export class FakeRconServer {
  /** @type {{ name: string, uuid: string }[]} */
  online = [];
  max = 20;
  /** Commands received after login, in order. @type {string[]} */
  commands = [];
  logins = 0;
  port = 0;
  /** @type {import('node:net').Server | undefined} */
  #server;
  #sockets = new Set();
  #password;

  /** @param {string} password */
  constructor(password) {
    this.#password = password;
  }

  async start(port = 0) {
    this.#server = createServer((socket) => this.#accept(socket));
    await new Promise((resolve) => this.#server.listen(port, '127.0.0.1', resolve));
    this.port = this.#server.address().port;
    return this.port;
  }

  async stop() {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise((resolve) => (this.#server ? this.#server.close(() => resolve()) : resolve()));
    this.#server = undefined;
  }

  /** @param {boolean} withUuids */
  listOutput(withUuids) {
    const names = this.online.map((player) => (withUuids ? `${player.name} (${player.uuid})` : player.name));
    return `There are ${this.online.length} of a max of ${this.max} players online: ${names.join(', ')}`;
  }

  /** @param {import('node:net').Socket} socket */
  #accept(socket) {
    this.#sockets.add(socket);
    socket.on('close', () => this.#sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let buffer = Buffer.alloc(0);
    let authenticated = false;
    socket.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      while (buffer.length >= 4) {
        const length = buffer.readInt32LE(0);
        if (buffer.length < 4 + length) break;
        const id = buffer.readInt32LE(4);
        const type = buffer.readInt32LE(8);
        const payload = buffer.toString('utf8', 12, 4 + length - 2);
        buffer = buffer.subarray(4 + length);
        if (type === 3) {
          this.logins++;
          authenticated = payload === this.#password;
          socket.write(packet(authenticated ? id : -1, 2, ''));
        } else if (type === 2 && authenticated) {
          this.commands.push(payload);
          const answer =
            payload === 'list uuids'
              ? this.listOutput(true)
              : payload === 'list'
                ? this.listOutput(false)
                : 'Unknown command';
          const bytes = Buffer.from(answer, 'utf8');
          for (let offset = 0; offset < bytes.length || offset === 0; offset += 4096) {
            socket.write(packet(id, 0, bytes.subarray(offset, offset + 4096).toString('utf8')));
            if (bytes.length === 0) break;
          }
        }
      }
    });
  }
}

/** One packet, written independently of the code under test. */
function packet(id, type, payload) {
  const body = Buffer.from(payload, 'utf8');
  const buffer = Buffer.alloc(14 + body.length);
  buffer.writeInt32LE(10 + body.length, 0);
  buffer.writeInt32LE(id, 4);
  buffer.writeInt32LE(type, 8);
  body.copy(buffer, 12);
  return buffer;
}
