/**
 * @module Tests: the platform API through the bin: tokens (secret once, hash only, scopes,
 * revoke, no cookie + bearer mix, no CSRF for Bearer), durable webhooks signed and guarded like
 * notifications, and custom events on the bus with their permission and reserved namespaces.
 */
import { createHash, createHmac } from 'node:crypto';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearerRequest } from './support/bearer.js';
import {
  type Client,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from './support/daemon.js';
import { createRepo } from './support/git-repo.js';
import { removeScratchDirs } from './support/scratch.js';
import { WebhookReceiver } from './support/webhook-receiver.js';
import { openSocket } from './support/websocket.js';

let daemon: RunningDaemon;
let owner: Client;
let receiver: WebhookReceiver;
let projectId: number;

const bearer = (secret: string, method: string, route: string, json?: unknown) =>
  bearerRequest(daemon, secret, method, route, json);

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
  daemon = await startDaemon({ args: ['--allow-private-targets', '--delivery-retry-delays-ms', '20'] });
  owner = await setupOwner(daemon);
  projectId = (await owner.post('/projects', { name: 'platform', path: await createRepo() })).body.id;
});

afterAll(async () => {
  await daemon?.stop();
  if (daemon) await removeDataDir(daemon);
  await receiver?.close();
  await removeScratchDirs();
});

describe('tokens', () => {
  test('the secret is shown once, only its hash is stored, and it authenticates without CSRF', async () => {
    const created = await owner.post('/tokens', { name: 'ci', scopes: ['read', 'write'] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'ci',
      scopes: ['read', 'write'],
      revoked_at: null,
      expires_at: null,
    });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^wsd_[0-9a-f]{16}_[0-9a-f]{64}$/);
    const listed = await owner.get('/tokens');
    expect(listed.body.tokens).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(22));

    const db = new Database(path.join(daemon.dataDir, 'workspaced.db'), { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM api_tokens').all() as Record<string, unknown>[];
      expect(JSON.stringify(rows)).not.toContain(secret.slice(22));
      expect(rows[0]!.token_hash).toBe(createHash('sha256').update(secret).digest('hex'));
    } finally {
      db.close();
    }

    expect((await bearer(secret, 'GET', '/projects')).status).toBe(200);
    const task = await bearer(secret, 'POST', `/projects/${projectId}/tasks`, {
      title: 'from ci',
      description: '',
      priority: 1,
    });
    expect(task.status).toBe(201);
    const audit = await owner.get('/audit');
    const entry = audit.body.entries.find((e: { action: string }) => e.action === 'POST /projects/:id/tasks');
    expect(entry.actor).toBe(`owner (token ${created.body.id})`);
  });

  test('scopes limit the routes; account routes never take a token', async () => {
    const readOnly = (await owner.post('/tokens', { name: 'reader', scopes: ['read'] })).body.secret;
    expect((await bearer(readOnly, 'GET', `/projects/${projectId}/tasks`)).status).toBe(200);
    const write = await bearer(readOnly, 'POST', `/projects/${projectId}/tasks`, {
      title: 'x',
      description: '',
      priority: 1,
    });
    expect(write.status).toBe(403);
    expect(write.body.error.code).toBe('TOKEN_SCOPE');
    const writer = (await owner.post('/tokens', { name: 'writer', scopes: ['write'] })).body.secret;
    for (const [method, route, json] of [
      ['POST', '/tokens', { name: 'minted' }],
      ['GET', '/tokens', undefined],
      ['GET', '/users', undefined],
      ['GET', '/me', undefined],
    ] as const) {
      const answer = await bearer(writer, method, route, json);
      expect(answer.status, route).toBe(403);
      expect(answer.body.error.code).toBe('TOKEN_SCOPE');
    }
    const eventsOnly = (await owner.post('/tokens', { name: 'events', scopes: ['events'] })).body.secret;
    expect((await bearer(eventsOnly, 'GET', '/projects')).status).toBe(403);
    expect(
      (
        await bearer(eventsOnly, 'POST', '/events', {
          stream: `project:${projectId}`,
          type: 'ci.done',
          data: {},
          critical: false,
        })
      ).status,
    ).toBe(202);
  });

  test("a token never exceeds its user's role", async () => {
    const viewer = await userClient(daemon, owner, 'viewer1', 'viewer');
    await owner.post(`/projects/${projectId}/members`, { user_id: viewer.id, role: 'viewer' });
    const secret = (await viewer.client.post('/tokens', { name: 'mine', scopes: ['write'] })).body.secret;
    expect((await bearer(secret, 'GET', `/projects/${projectId}/tasks`)).status).toBe(200);
    const denied = await bearer(secret, 'POST', `/projects/${projectId}/tasks`, {
      title: 'x',
      description: '',
      priority: 1,
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');
  });

  test('revoked, unknown and malformed tokens are refused; cookie plus bearer is refused', async () => {
    const created = await owner.post('/tokens', { name: 'short-lived', scopes: ['read'] });
    const secret: string = created.body.secret;
    expect((await bearer(secret, 'GET', '/projects')).status).toBe(200);
    const revoked = await owner.post(`/tokens/${created.body.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    for (const wrong of [secret, `${secret.slice(0, -1)}0`, 'wsd_nothing', 'wsd_a b']) {
      const answer = await bearer(wrong, 'GET', '/projects');
      expect(answer.status).toBe(401);
      expect(answer.body.error.code).toBe('AUTH_INVALID_TOKEN');
    }
    // Not one of ours: no identity at all.
    expect((await bearer('not-a-token', 'GET', '/projects')).body.error.code).toBe('AUTH_REQUIRED');
    const live = (await owner.post('/tokens', { name: 'mixed', scopes: ['read'] })).body.secret;
    const mixed = await owner.get('/projects', { headers: { authorization: `Bearer ${live}` } });
    expect(mixed.status).toBe(400);
    expect(mixed.body.error.code).toBe('AUTH_AMBIGUOUS');
    const other = await userClient(daemon, owner, 'dev1', 'developer');
    expect((await other.client.post(`/tokens/${created.body.id}/revoke`)).status).toBe(404);
    const bad = await owner.post('/tokens', { name: '', scopes: ['root'] });
    expect(bad.status).toBe(400);
  });
});

test('a user holds at most 100 live tokens', async () => {
  const { client } = await userClient(daemon, owner, 'collector', 'developer');
  let first: string | undefined;
  for (let index = 0; index < 100; index++) {
    const created = await client.post('/tokens', { name: `t${index}` });
    expect(created.status).toBe(201);
    first ??= created.body.id;
  }
  const refused = await client.post('/tokens', { name: 'one too many' });
  expect(refused.status).toBe(409);
  expect(refused.body.error.code).toBe('TOO_MANY_TOKENS');
  await client.post(`/tokens/${first}/revoke`);
  expect((await client.post('/tokens', { name: 'after a revoke' })).status).toBe(201);
});

describe('webhooks', () => {
  test('a durable webhook receives matching project events, signed; updates and deletes', async () => {
    const created = await owner.post('/webhooks', {
      name: 'deploys',
      url: `${receiver.url}/platform`,
      events: ['deploy.*'],
      project_id: projectId,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'deploys',
      events: ['deploy.*'],
      enabled: true,
      project_id: projectId,
    });
    const secret: string = created.body.secret;
    expect(
      (await owner.post('/webhooks', { name: 'deploys', url: `${receiver.url}/x`, events: ['*'] })).status,
    ).toBe(409);
    expect(JSON.stringify((await owner.get('/webhooks')).body)).not.toContain(secret);

    await owner.post('/events', {
      stream: `project:${projectId}`,
      type: 'build.done',
      data: {},
      critical: false,
    });
    await owner.post('/events', {
      stream: `project:${projectId}`,
      type: 'deploy.finished',
      data: { env: 'prod' },
      critical: true,
    });
    const [request] = await receiver.waitFor('/platform');
    expect(request!.headers['x-workspaced-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(request!.body).digest('hex')}`,
    );
    expect(JSON.parse(request!.body)).toMatchObject({
      event: 'deploy.finished',
      stream: `project:${projectId}`,
      project_id: projectId,
      critical: true,
      data: { env: 'prod' },
    });
    expect(receiver.received.filter((r) => r.path === '/platform')).toHaveLength(1);

    const updated = await owner.request('PUT', '/webhooks/deploys', { json: { enabled: false } });
    expect(updated.body).toMatchObject({ enabled: false, url: `${receiver.url}/platform` });
    expect(updated.body.last_delivery).toMatchObject({ outcome: 'delivered', status: 204 });
    expect(
      (await owner.request('PUT', '/webhooks/deploys', { json: { url: 'file:///etc/passwd' } })).status,
    ).toBe(422);
    expect((await owner.delete('/webhooks/deploys')).status).toBe(204);
    expect((await owner.delete('/webhooks/deploys')).status).toBe(404);
  });

  test('webhooks need settings.manage to change and settings.view to list', async () => {
    const developer = await userClient(daemon, owner, 'dev2', 'developer');
    expect((await developer.client.get('/webhooks')).status).toBe(403);
    expect(
      (await developer.client.post('/webhooks', { name: 'x', url: `${receiver.url}/x`, events: ['*'] }))
        .status,
    ).toBe(403);
  });
});

describe('custom events', () => {
  test('are published on the bus to subscribers of the project stream', async () => {
    const events = await openSocket(daemon, owner, '/ws');
    try {
      events.send({ op: 'sub', stream: `project:${projectId}` });
      await events.until(() => events.messages.find((m) => m.op === 'subscribed'), 'subscribed');
      const published = await owner.post('/events', {
        stream: `project:${projectId}`,
        type: 'ci.finished',
        data: { ok: true },
        critical: true,
      });
      expect(published.status).toBe(202);
      const event = await events.until(
        () => events.messages.find((m) => m.type === 'ci.finished'),
        'custom event',
      );
      expect(event).toMatchObject({ seq: published.body.seq, critical: true, data: { ok: true } });
    } finally {
      await events.close();
    }
  });

  test('bad streams, reserved types, unknown projects and viewers are refused', async () => {
    const post = (body: unknown) => owner.post('/events', body);
    expect((await post({ stream: 'terminal:1', type: 'a.b', data: {}, critical: false })).status).toBe(400);
    expect(
      (await post({ stream: `project:${projectId}`, type: 'task.updated', data: {}, critical: false }))
        .status,
    ).toBe(400);
    expect(
      (await post({ stream: `project:${projectId}`, type: 'nodots', data: {}, critical: false })).status,
    ).toBe(400);
    expect((await post({ stream: 'project:999', type: 'a.b', data: {}, critical: false })).status).toBe(404);
    const viewer = await userClient(daemon, owner, 'viewer2', 'viewer');
    await owner.post(`/projects/${projectId}/members`, { user_id: viewer.id, role: 'viewer' });
    const denied = await viewer.client.post('/events', {
      stream: `project:${projectId}`,
      type: 'a.b',
      data: {},
      critical: false,
    });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('PERMISSION_DENIED');
  });
});
