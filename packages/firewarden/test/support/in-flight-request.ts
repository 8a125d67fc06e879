/**
 * @module A request whose upload and answer a test can wait for separately.
 */
import { request } from 'node:http';
import { exec } from '../engine/support/netns.js';
import type { ApiClient } from './api-client.js';

/**
 * Whether the server's side of the connection from `clientPort` holds no unread byte in the
 * kernel (`ss`'s Recv-Q): the server has read all that was sent (its stream buffers a few KB at
 * most beyond what its handler took).
 */
export async function serverReadAll(serverPort: number, clientPort: number): Promise<boolean> {
  const listed = await exec([
    'ss',
    '-Htn',
    'state',
    'established',
    `( sport = :${serverPort} and dport = :${clientPort} )`,
  ]);
  const [recvQ] = listed.stdout.trim().split(/\s+/);
  return listed.code === 0 && recvQ === '0';
}

/**
 * Sends a request with a JSON body through node:http: `upload` settles once its last byte left for
 * the server, `answer` with the response. A test sends another request in between to see whether
 * the server answers it while it works on this one. With `holdLastByte`, `upload` settles once all
 * but the last byte left, and `release()` sends that byte (settling once it left): the server has
 * then all of the body at once, and starts working on it as soon as it reads that byte.
 */
export function sendInFlight(
  client: ApiClient,
  method: string,
  path: string,
  body: unknown,
  { holdLastByte = false } = {},
) {
  const target = new URL(path, client.baseUrl);
  const text = JSON.stringify(body);
  let uploaded!: () => void;
  const upload = new Promise<void>((resolve) => {
    uploaded = resolve;
  });
  let release: () => Promise<void> = async () => undefined;
  let localPort: () => number | undefined = () => undefined;
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    const outgoing = request(
      target,
      {
        method,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(text),
          cookie: client.cookie!,
          'X-Firewarden-CSRF': client.csrf!,
        },
      },
      (response) => {
        let received = '';
        response.on('data', (chunk: Buffer) => {
          received += chunk.toString();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: received }));
      },
    );
    outgoing.on('error', reject);
    localPort = () => outgoing.socket?.localPort;
    if (!holdLastByte) {
      outgoing.end(text, uploaded);
      return;
    }
    outgoing.write(text.slice(0, -1), uploaded);
    release = () => new Promise<void>((resolve) => outgoing.end(text.slice(-1), resolve));
  });
  return { upload, answer, release: () => release(), localPort: () => localPort() };
}
