/**
 * @module A fake game Query server (wiki.vg/Query) on loopback UDP: handshake with a challenge
 * token, and the full stat answer with its K/V section and player list.
 */
import { createSocket, type Socket } from 'node:dgram';

export class FakeQueryServer {
  players: string[] = [];
  private socket: Socket | undefined;
  private readonly token = 9_513_307;
  port = 0;

  async start(): Promise<number> {
    const socket = createSocket('udp4');
    this.socket = socket;
    socket.on('message', (message, remote) => {
      if (message[0] !== 0xfe || message[1] !== 0xfd) return;
      const type = message[2];
      const session = message.subarray(3, 7);
      if (type === 9) {
        socket.send(
          Buffer.concat([Buffer.from([9]), session, Buffer.from(`${this.token}\0`, 'latin1')]),
          remote.port,
          remote.address,
        );
      } else if (type === 0 && message.length === 15 && message.readInt32BE(7) === this.token) {
        const kv = [
          'hostname',
          'A Test Server',
          'gametype',
          'SMP',
          'version',
          '1.21.4',
          'numplayers',
          String(this.players.length),
          'maxplayers',
          '30',
        ];
        const body = Buffer.concat([
          Buffer.from([0]),
          session,
          Buffer.from('splitnum\0\x80\0', 'latin1'),
          Buffer.from(`${kv.join('\0')}\0\0`, 'utf8'),
          Buffer.from('\x01player_\0\0', 'latin1'),
          Buffer.from(`${this.players.map((name) => `${name}\0`).join('')}\0`, 'utf8'),
        ]);
        socket.send(body, remote.port, remote.address);
      }
    });
    await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
    this.port = socket.address().port;
    return this.port;
  }

  stop(): void {
    this.socket?.close();
  }
}
