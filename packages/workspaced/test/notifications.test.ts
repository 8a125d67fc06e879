/**
 * @module Tests: notification rules through the bin. Webhook deliveries land on a real local
 * receiver (the daemon runs with `--allow-private-targets`), their signature is checked here with
 * node:crypto; rules match on event type and project; failures are retried, never followed
 * through a redirect, and logged without the secret; browser rules publish on the owner's own
 * stream. Without the flag, private targets are refused at save and at delivery time.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
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

const hmac = (secret: string, body: string) =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

let receiver: WebhookReceiver;
const daemons: RunningDaemon[] = [];

async function daemonWith(args: string[]): Promise<{ daemon: RunningDaemon; owner: Client }> {
  const daemon = await startDaemon({ args });
  daemons.push(daemon);
  return { daemon, owner: await setupOwner(daemon) };
}

beforeAll(async () => {
  receiver = await new WebhookReceiver().start();
});

afterAll(async () => {
  for (const daemon of daemons) {
    await daemon.stop();
    await removeDataDir(daemon);
  }
  await receiver?.close();
  await removeScratchDirs();
});

describe('with --allow-private-targets', () => {
  let daemon: RunningDaemon;
  let owner: Client;

  beforeAll(async () => {
    ({ daemon, owner } = await daemonWith([
      '--allow-private-targets',
      '--delivery-retry-delays-ms',
      '20,20',
    ]));
  });

  test('a webhook rule delivers a signed, audited test notification', async () => {
    const created = await owner.post('/notifications/rules', {
      event: 'notification.test',
      channel: 'webhook',
      target: `${receiver.url}/signed`,
      enabled: true,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      event: 'notification.test',
      channel: 'webhook',
      enabled: true,
      project_id: null,
    });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    const listed = await owner.get('/notifications/rules');
    expect(listed.body.rules).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(secret);

    const tested = await owner.post('/notifications/test', { rule_id: created.body.id });
    expect(tested.status).toBe(200);
    const [request] = await receiver.waitFor('/signed');
    expect(tested.body.results).toEqual([
      {
        rule_id: created.body.id,
        channel: 'webhook',
        delivery_id: request!.headers['x-workspaced-delivery'],
        outcome: 'delivered',
        status: 204,
        attempts: 1,
        error: null,
      },
    ]);
    expect(request!.method).toBe('POST');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-workspaced-event']).toBe('notification.test');
    expect(request!.headers['x-workspaced-signature']).toBe(hmac(secret, request!.body));
    expect(JSON.parse(request!.body)).toMatchObject({
      rule_id: created.body.id,
      event: 'notification.test',
      priority: 3,
      summary: 'test notification requested by owner',
      project_id: null,
    });
    const audit = await owner.get('/audit');
    expect(audit.body.entries.map((entry: { action: string }) => entry.action)).toContain(
      'POST /notifications/test',
    );
  });

  test('rules fire only for their event type and project', async () => {
    const repo = await createRepo();
    const projectA = (await owner.post('/projects', { name: 'a', path: repo })).body.id;
    const projectB = (await owner.post('/projects', { name: 'b', path: repo })).body.id;
    await owner.post('/workflows', { name: 'gate', steps: [{ name: 'approve', kind: 'approval' }] });
    await owner.post('/notifications/rules', {
      event: 'workflow.updated',
      channel: 'webhook',
      target: `${receiver.url}/workflow-a`,
      enabled: true,
      project_id: projectA,
    });
    await owner.post('/notifications/rules', {
      event: 'attention.*',
      channel: 'webhook',
      target: `${receiver.url}/attention-b`,
      enabled: true,
      project_id: projectB,
    });
    expect((await owner.post('/workflows/gate/start', { project_id: projectA })).status).toBe(201);
    const [workflowA] = await receiver.waitFor('/workflow-a');
    expect(JSON.parse(workflowA!.body)).toMatchObject({ event: 'workflow.updated', project_id: projectA });
    expect((await owner.post('/workflows/gate/start', { project_id: projectB })).status).toBe(201);
    const [attentionB] = await receiver.waitFor('/attention-b');
    expect(JSON.parse(attentionB!.body)).toMatchObject({
      event: 'attention.created',
      priority: 1,
      project_id: projectB,
    });
    // Project A raised an approval item too, and project B's run was updated: neither reached the other rule.
    const all = receiver.received.filter((r) => r.path === '/workflow-a' || r.path === '/attention-b');
    for (const request of all) {
      const payload = JSON.parse(request.body);
      expect(payload.project_id).toBe(request.path === '/workflow-a' ? projectA : projectB);
    }
  });

  test('a rule never tells its owner about a project they cannot see', async () => {
    const outsider = await userClient(daemon, owner, 'outsider', 'developer');
    // Made first, so it is matched before the owner's rule on the same event.
    const spying = await outsider.client.post('/notifications/rules', {
      event: '*',
      channel: 'webhook',
      target: `${receiver.url}/outsider`,
      enabled: true,
    });
    expect(spying.status).toBe(201);
    await owner.post('/notifications/rules', {
      event: 'secret.*',
      channel: 'webhook',
      target: `${receiver.url}/insider`,
      enabled: true,
    });
    const hidden = (await owner.post('/projects', { name: 'hidden', path: await createRepo() })).body.id;
    expect(
      (
        await owner.post('/events', {
          stream: `project:${hidden}`,
          type: 'secret.plan',
          data: {},
          critical: false,
        })
      ).status,
    ).toBe(202);
    await receiver.waitFor('/insider');
    expect(receiver.received.filter((r) => r.path === '/outsider')).toHaveLength(0);
    // The outsider cannot scope a rule to that project either.
    const scoped = await outsider.client.post('/notifications/rules', {
      event: '*',
      channel: 'browser',
      enabled: true,
      project_id: hidden,
    });
    expect(scoped.status).toBe(404);
  });

  test('a failing receiver is retried, then counted failed; the log never holds the secret', async () => {
    const secret = 'a-secret-that-must-not-leak-0123';
    const created = await owner.post('/notifications/rules', {
      event: 'notification.test',
      channel: 'webhook',
      target: `${receiver.url}/failing?token=path-secret`,
      enabled: true,
      secret,
    });
    expect(created.status).toBe(201);
    receiver.status = 500;
    try {
      const tested = await owner.post('/notifications/test', { rule_id: created.body.id });
      expect(tested.body.results[0]).toMatchObject({ outcome: 'failed', status: 500, attempts: 3 });
    } finally {
      receiver.status = 204;
    }
    const requests = receiver.received.filter((r) => r.path.startsWith('/failing'));
    expect(requests).toHaveLength(3);
    for (const request of requests)
      expect(request.headers['x-workspaced-signature']).toBe(hmac(secret, request.body));
    const rule = await owner.get(`/notifications/rules/${created.body.id}`);
    expect(rule.body.last_delivery).toMatchObject({ outcome: 'failed', status: 500 });
    expect(rule.body.secret).toBeUndefined();
    // The log is written asynchronously (pino): wait for the line, then read everything.
    await expect.poll(() => daemon.output(), { timeout: 10_000 }).toContain('notification delivery failed');
    const log = daemon.output();
    expect(log).not.toContain(secret);
    expect(log).not.toContain('path-secret');
  });

  test('a redirect is not followed and counts as a failure', async () => {
    const created = await owner.post('/notifications/rules', {
      event: 'notification.test',
      channel: 'webhook',
      target: `${receiver.url}/redirecting`,
      enabled: true,
    });
    receiver.status = 302;
    try {
      const tested = await owner.post('/notifications/test', { rule_id: created.body.id });
      expect(tested.body.results[0]).toMatchObject({ outcome: 'failed', status: 302, attempts: 1 });
    } finally {
      receiver.status = 204;
    }
    expect(receiver.received.filter((r) => r.path === '/elsewhere')).toHaveLength(0);
  });

  test("a browser rule publishes a critical notification on its owner's stream only", async () => {
    const me = await owner.get('/me');
    const ownerId: string = me.body.user.id;
    const events = await openSocket(daemon, owner, '/ws');
    const developer = await userClient(daemon, owner, 'dev', 'developer');
    const spy = await openSocket(daemon, developer.client, '/ws');
    try {
      events.send({ op: 'sub', stream: `user:${ownerId}` });
      await events.until(() => events.messages.find((m) => m.op === 'subscribed'), 'subscribed');
      spy.send({ op: 'sub', stream: `user:${ownerId}` });
      const refused = await spy.until(() => spy.messages.find((m) => m.op === 'error'), 'refusal');
      expect(refused.error.code).toBe('STREAM_NOT_FOUND');

      const created = await owner.post('/notifications/rules', {
        event: 'notification.test',
        channel: 'browser',
        enabled: true,
      });
      expect(created.status).toBe(201);
      expect(created.body.secret).toBeUndefined();
      await owner.post('/notifications/test', { rule_id: created.body.id });
      const notification = await events.until(
        () => events.messages.find((m) => m.type === 'notification'),
        'notification',
      );
      expect(notification).toMatchObject({
        stream: `user:${ownerId}`,
        critical: true,
        data: {
          rule_id: created.body.id,
          event: 'notification.test',
          priority: 3,
          summary: 'test notification requested by owner',
        },
      });
      // The developer sees none of the owner's rules.
      expect((await developer.client.get('/notifications/rules')).body.rules).toEqual([]);
      expect((await developer.client.get(`/notifications/rules/${created.body.id}`)).status).toBe(404);
    } finally {
      await events.close();
      await spy.close();
    }
  });

  test('rules are validated, updated and deleted', async () => {
    const bad = await owner.post('/notifications/rules', {
      event: 'x',
      channel: 'pigeon',
      target: '',
      enabled: true,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_FAILED');
    const ftp = await owner.post('/notifications/rules', {
      event: 'x',
      channel: 'webhook',
      target: 'ftp://example.com/',
      enabled: true,
    });
    expect(ftp.status).toBe(422);
    expect(ftp.body.error.code).toBe('TARGET_REFUSED');
    const withUser = await owner.post('/notifications/rules', {
      event: 'x',
      channel: 'webhook',
      target: 'http://user:pw@example.com/',
      enabled: true,
    });
    expect(withUser.body.error.code).toBe('TARGET_REFUSED');
    const unknownProject = await owner.post('/notifications/rules', {
      event: 'x',
      channel: 'browser',
      enabled: true,
      project_id: 999,
    });
    expect(unknownProject.status).toBe(404);

    const rule = {
      event: 'task.updated',
      channel: 'webhook',
      target: `${receiver.url}/upsert`,
      enabled: true,
    };
    const first = await owner.post('/notifications/rules', rule);
    const again = await owner.post('/notifications/rules', { ...rule, enabled: false });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, enabled: false });
    const updated = await owner.request('PUT', `/notifications/rules/${first.body.id}`, {
      json: { enabled: true },
    });
    expect(updated.body).toMatchObject({
      id: first.body.id,
      enabled: true,
      event: 'task.updated',
      target: rule.target,
    });
    expect((await owner.delete(`/notifications/rules/${first.body.id}`)).status).toBe(204);
    expect((await owner.get(`/notifications/rules/${first.body.id}`)).status).toBe(404);
  });
});

describe('without --allow-private-targets', () => {
  test('private targets are refused when saved, and names resolving to them when delivering', async () => {
    const { owner } = await daemonWith([]);
    for (const target of [
      `${receiver.url}/x`,
      'http://[::1]:9/x',
      'http://169.254.169.254/latest',
      'http://10.1.2.3/',
    ]) {
      const refused = await owner.post('/notifications/rules', {
        event: 'notification.test',
        channel: 'webhook',
        target,
        enabled: true,
      });
      expect(refused.status, target).toBe(422);
      expect(refused.body.error.code).toBe('TARGET_REFUSED');
    }
    const port = new URL(receiver.url).port;
    const byName = await owner.post('/notifications/rules', {
      event: 'notification.test',
      channel: 'webhook',
      target: `http://localhost:${port}/by-name`,
      enabled: true,
    });
    expect(byName.status).toBe(201);
    const tested = await owner.post('/notifications/test', { rule_id: byName.body.id });
    expect(tested.body.results[0]).toMatchObject({ outcome: 'refused', status: null });
    expect(tested.body.results[0].error).toContain('private');
    expect(receiver.received.filter((r) => r.path === '/by-name')).toHaveLength(0);
  });

  test('WORKSPACED_ALLOW_PRIVATE_TARGETS=true allows them like the flag', async () => {
    process.env.WORKSPACED_ALLOW_PRIVATE_TARGETS = 'true';
    try {
      const { owner } = await daemonWith([]);
      const created = await owner.post('/notifications/rules', {
        event: 'notification.test',
        channel: 'webhook',
        target: `${receiver.url}/env`,
        enabled: true,
      });
      expect(created.status).toBe(201);
    } finally {
      delete process.env.WORKSPACED_ALLOW_PRIVATE_TARGETS;
    }
  });
});
