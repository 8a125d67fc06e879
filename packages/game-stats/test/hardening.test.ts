/**
 * @module Tests: the attack-review findings through the running bin: failed API keys
 * count against the rate limit, clients are counted per IPv6 /64 and IPv4-mapped addresses as
 * IPv4, unknown category names are refused, and a client trickling its headers is cut off.
 */

import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { trickleRequest } from '@suite/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createServerFolder, type GeneratedServer } from './support/generated-server.js';
import { getJson, type RunningBin, startBin } from './support/running-bin.js';

let server: GeneratedServer;
let keyed: RunningBin;
let open: RunningBin;
const key = 'correct horse battery staple';

beforeAll(async () => {
  server = await createServerFolder({ players: 12, seed: 17 });
  const config = (name: string, lines: string[]) => {
    const file = path.join(server.dir, name);
    return writeFile(file, ['server-dir: .', ...lines].join('\n')).then(() => file);
  };
  const limits = ['rate-limit:', '  requests: 5', '  window-seconds: 60'];
  const proxy = ['  trusted-proxies: ["127.0.0.1"]'];
  keyed = await startBin(
    ['--config', await config('keyed.yml', ['security:', '  enable-api-key: true', ...proxy, ...limits])],
    {
      GAME_STATS_API_KEY: key,
    },
  );
  open = await startBin(['--config', await config('open.yml', ['security:', ...proxy, ...limits])]);
});

afterAll(async () => {
  await keyed.stop();
  await open.stop();
  await server.remove();
});

const from = (address: string, headers: Record<string, string> = {}) => ({
  headers: { 'x-forwarded-for': address, ...headers },
});

describe('rate limit', () => {
  test('wrong API keys count against the client: the 6th guess in a window of 5 gets 429, not 401', async () => {
    const statuses: number[] = [];
    for (let guess = 0; guess < 7; guess++) {
      const response = await fetch(
        `${keyed.url}/api/players`,
        from('10.17.0.1', { authorization: `Bearer guess-${guess}` }),
      );
      statuses.push(response.status);
      await response.arrayBuffer();
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    // Even the right key waits for the window now: the budget is the client's, not the key's.
    expect(
      (await getJson(`${keyed.url}/api/players`, from('10.17.0.1', { authorization: `Bearer ${key}` })))
        .status,
    ).toBe(429);
    const other = await fetch(
      `${keyed.url}/api/players`,
      from('10.17.0.2', { authorization: `Bearer ${key}` }),
    );
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('4');
  });

  test('one IPv6 /64 is one client', async () => {
    const statuses: number[] = [];
    for (let host = 1; host <= 6; host++)
      statuses.push((await getJson(`${open.url}/api/players`, from(`2001:db8:17:1::${host}`))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await getJson(`${open.url}/api/players`, from('2001:db8:17:1:ffff:ffff:ffff:ffff'))).status).toBe(
      429,
    );
    expect((await getJson(`${open.url}/api/players`, from('2001:db8:17:2::1'))).status).toBe(200);
  });

  test('an IPv4-mapped IPv6 address, in any spelling, is the IPv4 client', async () => {
    const spellings = [
      '10.17.3.1',
      '::ffff:10.17.3.1',
      '::ffff:a11:301',
      '0:0:0:0:0:ffff:10.17.3.1',
      '::FFFF:0A11:0301',
    ];
    const statuses: number[] = [];
    for (const address of spellings)
      statuses.push((await getJson(`${open.url}/api/players`, from(address))).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    expect((await getJson(`${open.url}/api/players`, from('10.17.3.1'))).status).toBe(429);
  });
});

describe('categories filter', () => {
  test('only known category names: __proto__, constructor and odd namespaces get 400, never an echo', async () => {
    const name = server.valid.find((player) => player.name !== null)!.name!;
    const player = (categories: string, client: string) =>
      getJson(`${open.url}/api/player/${name}?categories=${encodeURIComponent(categories)}`, from(client));
    const known = await player('mined,pickedUp,minecraft:killed_by', '10.17.4.1');
    expect(known.status).toBe(200);
    expect(known.body.metadata.categories_filter).toEqual([
      'minecraft:mined',
      'minecraft:picked_up',
      'minecraft:killed_by',
    ]);
    const hostile = [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'minecraft:__proto__',
      '<b>:mined',
      'a b:mined',
    ];
    for (const [index, categories] of hostile.entries()) {
      const answer = await player(categories, `10.17.5.${index}`);
      expect(answer.status, categories).toBe(400);
      expect(answer.body).toMatchObject({ success: false, status: 400 });
      expect(JSON.stringify(answer.body)).not.toContain('native code');
    }
  });
});

describe('slow clients', () => {
  test('a client sending its headers at one byte a second is cut off before it finishes', async () => {
    const url = new URL(open.url);
    const request = `GET /api/players HTTP/1.1\r\nHost: ${url.host}\r\nX-Padding: ${'x'.repeat(60)}\r\n\r\n`;
    const { sent, received } = await trickleRequest(url, request, { everyMs: 1_000 });
    // Cut off while the headers were still arriving, with 408 or a bare close, never an answer.
    expect(sent).toBeLessThan(request.length);
    expect(received === '' || received.startsWith('HTTP/1.1 408')).toBe(true);
  }, 60_000);
});
