/**
 * @module Tests: Configuration defaults, validation, and what server.properties and the environment fill in.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseConfig, resolveSettings } from './load-config.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'game-stats-config-'));
  await writeFile(
    path.join(dir, 'server.properties'),
    '#comment\nlevel-name=survival\\ world\nenable-rcon=true\nrcon.port=25999\nrcon.password=p\\=ss\nmax-players=64\n',
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

test('every key has the documented default', () => {
  expect(parseConfig({})).toEqual({
    server: { host: '0.0.0.0', port: 8080 },
    'server-dir': '.',
    rcon: { host: '127.0.0.1', 'interval-seconds': 5, 'timeout-seconds': 3 },
    query: { host: '127.0.0.1', 'interval-seconds': 5, 'timeout-seconds': 3 },
    security: {
      'enable-api-key': false,
      'api-key': '',
      'enable-cors': true,
      'cors-origin': '*',
      'enable-ip-whitelist': false,
      'allowed-ips': [],
      'trusted-proxies': [],
    },
    'rate-limit': { enabled: true, requests: 120, 'window-seconds': 60 },
    pagination: { 'default-limit': 25, 'max-limit': 100 },
    compression: { enabled: true },
    index: { watch: true, 'rescan-seconds': 300, 'parallel-read-min-files': 2000, 'snapshot-seconds': 600 },
    'history-seconds': 3600,
    'history-retention-days': 35,
    'history-max-mb': 200,
    'history-time-zone': 'UTC',
    'custom-stats': {},
  });
});

test('an unknown history time zone is refused with the key', () => {
  const parse = () => parseConfig({ 'history-time-zone': 'Mars/Olympus' });
  expect(parse).toThrow('history-time-zone');
  expect(parse).toThrow('unknown time zone');
});

test('unknown keys and bad values are refused with their path', () => {
  expect(() => parseConfig({ 'rate-limit': { request: 5 } })).toThrow(/rate-limit/);
  expect(() => parseConfig({ pagination: { 'default-limit': 500 } })).toThrow(/default-limit/);
});

test('worlds and RCON default from server.properties; the environment overrides the API key', () => {
  const settings = resolveSettings(
    { 'server-dir': dir, security: { 'api-key': 'file' } },
    { GAME_STATS_API_KEY: 'env' },
  );
  expect(settings.worlds).toEqual(['survival world']);
  expect(settings.online).toMatchObject({ kind: 'rcon', port: 25_999, password: 'p=ss', intervalMs: 5000 });
  expect(settings.maxPlayers).toBe(64);
  expect(settings.config.security['api-key']).toBe('env');
  expect(resolveSettings({ 'server-dir': dir, rcon: { enabled: false } }, {}).online).toEqual({
    kind: 'none',
  });
});
