/**
 * @module WebSocket upgrade checks on a real Node server's `upgrade` event (loopback HTTP), on
 * SQLite and PostgreSQL: Host allow-list, Origin required and allow-listed, session cookie
 * required, and the signed-in user handed to the accepted upgrade.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUpgrade, createWebAuth, type WebAuth } from '../src/index.js';
import { cheapArgon2 } from './support/clock.js';
import { databaseKinds, openTestDatabase, type TestDatabase } from './support/databases.js';

const cookieName = 'workspaced_session';

describe.each(databaseKinds)('WebSocket upgrade checks on %s', (kind) => {
  let database: TestDatabase;
  let auth: WebAuth;
  let server: Server;
  let port = 0;
  let cookie: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    auth = createWebAuth({ db: database.db, argon2: cheapArgon2 });
    await auth.users.create({ username: 'judy', password: 'a long enough password', role: 'developer' });
    const result = await auth.login({
      username: 'judy',
      password: 'a long enough password',
      client: '127.0.0.1',
    });
    if (result.kind !== 'ok') throw new Error(result.kind);
    cookie = `${cookieName}=${result.token}`;

    server = createServer((_, response) => response.end('plain'));
    server.on('upgrade', async (incoming, socket) => {
      const verdict = await authorizeUpgrade(incoming.headers, {
        auth,
        cookieName,
        hosts: { port: () => port },
      });
      if (!verdict.ok) {
        socket.end(
          `HTTP/1.1 ${verdict.status} Refused\r\nX-Code: ${verdict.code}\r\nContent-Length: 0\r\n\r\n`,
        );
        return;
      }
      socket.end(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nX-User: ${verdict.auth.user.username}\r\n\r\n`,
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    await database?.close();
  });

  /** Sends an upgrade request; resolves with the status and the X-Code / X-User header. */
  function upgrade(headers: Record<string, string>): Promise<{ status: number; detail: string | undefined }> {
    return new Promise((resolve, reject) => {
      const outgoing = request({
        host: '127.0.0.1',
        port,
        path: '/ws',
        agent: false,
        headers: { connection: 'Upgrade', upgrade: 'websocket', ...headers },
      });
      outgoing.on('upgrade', (response, socket) => {
        socket.destroy();
        resolve({ status: response.statusCode ?? 0, detail: response.headers['x-user'] as string });
      });
      outgoing.on('response', (response) => {
        response.resume();
        resolve({ status: response.statusCode ?? 0, detail: response.headers['x-code'] as string });
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  it('accepts an allowed Host and Origin with a live session, and names the user', async () => {
    const origin = `http://localhost:${port}`;
    expect(await upgrade({ host: `localhost:${port}`, origin, cookie })).toEqual({
      status: 101,
      detail: 'judy',
    });
  });

  it.each([
    [
      'a foreign Host',
      (p: number) => ({ host: `evil.example:${p}`, origin: `http://localhost:${p}` }),
      'HOST_NOT_ALLOWED',
    ],
    ['no Origin', (p: number) => ({ host: `localhost:${p}` }), 'ORIGIN_NOT_ALLOWED'],
    [
      'a foreign Origin',
      (p: number) => ({ host: `localhost:${p}`, origin: 'http://localhost:3000' }),
      'ORIGIN_NOT_ALLOWED',
    ],
    ['Origin null', (p: number) => ({ host: `localhost:${p}`, origin: 'null' }), 'ORIGIN_NOT_ALLOWED'],
  ])('refuses %s with 403', async (_, headersFor, code) => {
    expect(await upgrade({ ...headersFor(port), cookie })).toEqual({ status: 403, detail: code });
  });

  it('refuses 401 without a session or with a revoked one', async () => {
    const base = { host: `127.0.0.1:${port}`, origin: `http://127.0.0.1:${port}` };
    expect(await upgrade(base)).toEqual({ status: 401, detail: 'AUTH_REQUIRED' });
    const other = await auth.login({
      username: 'judy',
      password: 'a long enough password',
      client: '127.0.0.1',
    });
    if (other.kind !== 'ok') throw new Error(other.kind);
    const otherCookie = `${cookieName}=${other.token}`;
    expect((await upgrade({ ...base, cookie: otherCookie })).status).toBe(101);
    await auth.logout({ token: other.token });
    expect(await upgrade({ ...base, cookie: otherCookie })).toEqual({ status: 401, detail: 'AUTH_REQUIRED' });
  });
});
