/**
 * @module Tests: Configuration defaults, validation, and what server.properties and the environment fill in.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { parseConfig, readConfigFile, resolveSettings } from '../../../src/config/load-config.js';

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

test("a network's servers: dirs against the config file, rcon overriding the top level key by key", async () => {
  await mkdir(path.join(dir, 'creative', 'world'), { recursive: true });
  const file = path.join(dir, 'network.yml');
  await writeFile(
    file,
    [
      'rcon:',
      '  interval-seconds: 2',
      'servers:',
      '  - name: survival',
      '    server-dir: .',
      '  - name: creative',
      '    server-dir: creative',
      '    worlds: [world]',
      '    rcon: {enabled: true, port: 25576, password: other}',
      '',
    ].join('\n'),
  );
  const settings = resolveSettings(readConfigFile(file), {});
  expect(settings.network).toBe(true);
  expect(settings.servers.map((server) => [server.name, server.serverDir, server.worlds])).toEqual([
    ['survival', dir, ['survival world']],
    ['creative', path.join(dir, 'creative'), ['world']],
  ]);
  expect(settings.servers[0]!.online).toMatchObject({
    kind: 'rcon',
    port: 25_999,
    password: 'p=ss',
    intervalMs: 2000,
  });
  expect(settings.servers[1]!.online).toMatchObject({
    kind: 'rcon',
    port: 25_576,
    password: 'other',
    intervalMs: 2000,
  });
  expect(settings.servers[1]!.maxPlayers).toBe(20);
  expect(resolveSettings({ 'server-dir': dir }, {}).network).toBe(false);
});

test('a network refuses duplicate names and folders, bad names, and servers beside server-dir', () => {
  const two = (second: { name: string; 'server-dir': string }) => ({
    servers: [{ name: 'a', 'server-dir': dir }, second],
  });
  expect(() => parseConfig(two({ name: 'a', 'server-dir': '/x' }))).toThrow(
    'servers.1.name: duplicate server name "a"',
  );
  expect(() => parseConfig(two({ name: 'Big One', 'server-dir': '/x' }))).toThrow('servers.1.name');
  expect(() => resolveSettings(two({ name: 'b', 'server-dir': `${dir}/` }), {})).toThrow(
    `servers: the folder ${dir} is given twice`,
  );
  expect(() => parseConfig({ 'server-dir': '.', servers: [{ name: 'a', 'server-dir': dir }] })).toThrow(
    'give either servers or server-dir and worlds, not both',
  );
});
