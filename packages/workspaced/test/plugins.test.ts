/**
 * @module Tests: plugin manifests through the bin: strict validation, disabled on registration,
 * enable and replace with PUT, who may do what. A manifest naming code to run is refused.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';

let daemon: RunningDaemon;
let owner: Client;

const manifest = {
  id: 'com.example.lint-badge',
  name: 'Lint badge',
  version: '1.2.0',
  description: 'Shows lint results on tasks',
  homepage: 'https://example.com/lint-badge',
  permissions: ['tasks.view'],
  events: ['task.*'],
};

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
});

afterAll(async () => {
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
});

test('a registered manifest is stored as given and disabled', async () => {
  const created = await owner.post('/plugins', manifest);
  expect(created.status).toBe(201);
  expect(created.body).toMatchObject({ id: manifest.id, enabled: false, manifest });
  expect((await owner.get('/plugins')).body.plugins).toHaveLength(1);
  expect((await owner.get(`/plugins/${manifest.id}`)).body).toMatchObject({
    id: manifest.id,
    enabled: false,
  });
  const again = await owner.post('/plugins', manifest);
  expect(again.status).toBe(409);
  expect(again.body.error.code).toBe('PLUGIN_EXISTS');
});

test('manifests are validated strictly, code entry points included', async () => {
  const minimal = { id: 'minimal', name: 'Minimal', version: '0.1.0' };
  for (const [what, body] of [
    ['no version', { id: 'a1', name: 'A' }],
    ['not semver', { ...minimal, id: 'a2', version: 'latest' }],
    ['bad id', { ...minimal, id: '../etc' }],
    ['unknown permission', { ...minimal, id: 'a3', permissions: ['root'] }],
    ['script homepage', { ...minimal, id: 'a4', homepage: 'javascript:alert(1)' }],
    ['code to run', { ...minimal, id: 'a5', main: './index.js' }],
    ['enabled on arrival', { ...minimal, id: 'a6', enabled: true }],
  ] as const) {
    const answer = await owner.post('/plugins', body);
    expect(answer.status, what).toBe(400);
    expect(answer.body.error.code, what).toBe('VALIDATION_FAILED');
  }
  const created = await owner.post('/plugins', minimal);
  expect(created.body.manifest).toEqual({ ...minimal, permissions: [], events: [] });
});

test('PUT enables, disables and replaces the manifest under the same id', async () => {
  await owner.post('/plugins', { id: 'switch', name: 'Switch', version: '1.0.0' });
  expect((await owner.request('PUT', '/plugins/switch', { json: { enabled: true } })).body.enabled).toBe(
    true,
  );
  const replaced = await owner.request('PUT', '/plugins/switch', {
    json: { manifest: { id: 'switch', name: 'Switch 2', version: '2.0.0' } },
  });
  expect(replaced.body).toMatchObject({ enabled: true, manifest: { name: 'Switch 2', version: '2.0.0' } });
  const moved = await owner.request('PUT', '/plugins/switch', {
    json: { manifest: { id: 'other', name: 'Other', version: '1.0.0' } },
  });
  expect(moved.body.error.code).toBe('PLUGIN_ID_MISMATCH');
  expect((await owner.request('PUT', '/plugins/none', { json: { enabled: true } })).status).toBe(404);
  expect((await owner.get('/plugins/NOT_AN_ID')).status).toBe(404);
});

test('registering and listing need the settings permissions', async () => {
  const developer = await userClient(daemon, owner, 'plugin-dev', 'developer');
  expect((await developer.client.get('/plugins')).status).toBe(403);
  expect(
    (await developer.client.post('/plugins', { id: 'mine', name: 'Mine', version: '1.0.0' })).status,
  ).toBe(403);
});
