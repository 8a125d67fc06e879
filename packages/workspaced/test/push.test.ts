/**
 * @module Tests: Web Push through the bin. The push service is a real loopback HTTP server (the
 * daemon runs with `--allow-private-targets`, the only way a plain-http loopback endpoint is
 * accepted); each device is a P-256 key pair and auth secret made here. What arrives is checked
 * as a push service and a browser would, with node:crypto only (support/push-device.ts): the
 * VAPID JWT's ES256 signature, audience and expiry, then the aes128gcm body decrypted and its
 * JSON asserted. An agent that needs input and a workflow approval reach every subscribed user
 * who may see the project, and nobody else; a disabled user's devices stop receiving; a push
 * service's 410 removes the subscription; the key pair is made once, 0600, and kept (a key file
 * others may read, or a subject that is not mailto:/https:, stops the daemon with a message).
 */
import { chmod, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, ownerPassword, type RunningDaemon, startDaemon, userClient } from './support/daemon.js';
import { writeFakeAgent } from './support/fake-agent.js';
import { startProjectDaemon, stopProjectDaemon } from './support/project-daemon.js';
import { PushDevice, verifyVapid } from './support/push-device.js';
import { type ReceivedRequest, WebhookReceiver } from './support/webhook-receiver.js';

const subject = 'mailto:ops@example.test';
let daemon: RunningDaemon;
let owner: Client;
let projectId: number;
let fakeAgent: string;
let pushService: WebhookReceiver;
let vapidKey: string;

beforeAll(async () => {
  pushService = await new WebhookReceiver().start();
  pushService.status = 201;
  ({ daemon, owner, projectId } = await startProjectDaemon('push', {
    args: ['--allow-private-targets', '--delivery-retry-delays-ms', '20,20', '--push-subject', subject],
    prepare: async (dir) => {
      fakeAgent = await writeFakeAgent(dir, 'codex', 'Run npm test? Allow? [y/n]');
    },
  }));
  vapidKey = (await owner.get('/push/subscriptions')).body.vapid_public_key;
});

afterAll(async () => {
  await stopProjectDaemon(daemon);
  await pushService?.close();
});

async function subscribe(client: Client, device: PushDevice) {
  const answer = await client.post('/push/subscriptions', device.subscription());
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id as number;
}

/** The push that arrived on a device's path, checked as the push service and the browser would. */
function open(device: PushDevice, request: ReceivedRequest) {
  const { key, claims } = verifyVapid(request.headers);
  expect(key).toBe(vapidKey);
  expect(claims.aud).toBe(pushService.url);
  expect(claims.sub).toBe(subject);
  const now = Date.now() / 1000;
  expect(claims.exp).toBeGreaterThan(now);
  expect(claims.exp).toBeLessThanOrEqual(now + 24 * 3600);
  expect(request.headers).toMatchObject({
    'content-encoding': 'aes128gcm',
    'content-type': 'application/octet-stream',
    ttl: '3600',
    urgency: 'high',
  });
  // The push service sees no plaintext.
  expect(request.raw.toString('latin1')).not.toContain('terminal');
  const message = JSON.parse(device.decrypt(request.raw));
  expect(request.headers.topic).toBe(message.tag);
  return message;
}

const pathOf = (device: PushDevice) => new URL(device.endpoint).pathname;
const arrivals = (device: PushDevice) => pushService.received.filter((r) => r.path === pathOf(device));
/** Every push a device received, checked and decrypted. */
const messages = (device: PushDevice) => arrivals(device).map((request) => open(device, request));

describe('keys and subscriptions', () => {
  test('the VAPID key pair is made once into the data dir (0600) and its public key is answered', async () => {
    const file = path.join(daemon.dataDir, 'push-vapid.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(await readFile(file, 'utf8'));
    expect(stored.publicKey).toBe(vapidKey);
    expect(Buffer.from(vapidKey, 'base64url')).toHaveLength(65);
    expect(JSON.stringify((await owner.get('/push/subscriptions')).body)).not.toContain(stored.privateKey);
  });

  test('a subscription is validated, listed to its owner only, updated in place and removed', async () => {
    const device = new PushDevice(`${pushService.url}/device/listing`);
    const good = device.subscription();
    const refused = async (body: unknown, code: string) => {
      const answer = await owner.post('/push/subscriptions', body);
      expect(answer.body.error?.code, JSON.stringify(answer.body)).toBe(code);
    };
    await refused({ ...good, endpoint: 'http://push.example.test/x' }, 'TARGET_REFUSED');
    await refused({ ...good, endpoint: 'ftp://push.example.test/x' }, 'TARGET_REFUSED');
    await refused({ ...good, endpoint: 'not a url' }, 'TARGET_REFUSED');
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 4;
    await refused(
      { ...good, keys: { ...good.keys, p256dh: offCurve.toString('base64url') } },
      'VALIDATION_FAILED',
    );
    await refused({ ...good, keys: { ...good.keys, auth: 'c2hvcnQ' } }, 'VALIDATION_FAILED');
    await refused({ ...good, extra: true }, 'VALIDATION_FAILED');
    await refused(
      { ...good, endpoint: `https://push.example.test/${'x'.repeat(2048)}` },
      'VALIDATION_FAILED',
    );

    const id = await subscribe(owner, device);
    const again = await owner.post('/push/subscriptions', good);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(id);
    const listed = (await owner.get('/push/subscriptions')).body.subscriptions;
    expect(listed).toEqual([
      expect.objectContaining({ id, push_service: pushService.url, last_success_at: null }),
    ]);
    // The endpoint's path and the keys are the browser's capability: never answered.
    expect(JSON.stringify(listed)).not.toContain('/device/listing');
    expect(JSON.stringify(listed)).not.toContain(good.keys.auth);

    const other = await userClient(daemon, owner, 'lister', 'developer');
    expect((await other.client.get('/push/subscriptions')).body.subscriptions).toEqual([]);
    expect((await other.client.delete(`/push/subscriptions/${id}`)).status).toBe(404);
    expect((await owner.delete(`/push/subscriptions/${id}`)).status).toBe(204);
    expect((await owner.get('/push/subscriptions')).body.subscriptions).toEqual([]);
  });

  test('a user keeps at most 10 devices', async () => {
    const user = await userClient(daemon, owner, 'collector', 'developer');
    for (let i = 0; i < 10; i++)
      await subscribe(user.client, new PushDevice(`https://push.example.test/c${i}`));
    const refused = await user.client.post(
      '/push/subscriptions',
      new PushDevice('https://push.example.test/c10').subscription(),
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('TOO_MANY_PUSH_SUBSCRIPTIONS');
    for (const { id } of (await user.client.get('/push/subscriptions')).body.subscriptions)
      expect((await user.client.delete(`/push/subscriptions/${id}`)).status).toBe(204);
  });
});

describe('pushes', () => {
  let devices: { owner: PushDevice; member: PushDevice; outsider: PushDevice };
  let member: { client: Client; id: string };

  beforeAll(async () => {
    devices = {
      outsider: new PushDevice(`${pushService.url}/device/outsider`),
      owner: new PushDevice(`${pushService.url}/device/owner`),
      member: new PushDevice(`${pushService.url}/device/member`),
    };
    const outsider = await userClient(daemon, owner, 'outsider', 'developer');
    member = await userClient(daemon, owner, 'member', 'developer');
    await owner.post(`/projects/${projectId}/members`, { user_id: member.id, role: 'developer' });
    // The outsider subscribes first, so the daemon considers (and refuses) them before the others.
    await subscribe(outsider.client, devices.outsider);
    await subscribe(owner, devices.owner);
    await subscribe(member.client, devices.member);
  });

  test('an agent that needs input reaches every device of the users who can see the project', async () => {
    const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
    await owner.post(`/terminals/${terminal}/input`, { data: `${fakeAgent}\r` });
    const [toOwner] = await pushService.waitFor('/device/owner', 1, 30_000);
    const [toMember] = await pushService.waitFor('/device/member', 1, 30_000);
    const item = (await owner.get('/attention')).body.items.find(
      (entry: { resource: string }) => entry.resource === `agent:terminal:${terminal}`,
    );
    const expected = {
      title: 'Agent needs input',
      body: `codex in terminal ${terminal} needs approval`,
      url: `/projects/${projectId}/terminals`,
      tag: `attention-${item.id}`,
    };
    expect(open(devices.owner, toOwner!)).toEqual(expected);
    expect(open(devices.member, toMember!)).toEqual(expected);
    const listed = (await owner.get('/push/subscriptions')).body.subscriptions;
    expect(listed[0].last_success_at).not.toBeNull();
    await owner.post(`/terminals/${terminal}/input`, { data: 'y\r' });
  }, 60_000);

  test('an approval waiting reaches the owner; a disabled user and an outsider get nothing', async () => {
    expect((await owner.patch(`/users/${member.id}`, { disabled: true })).status).toBe(200);
    const defined = await owner.post('/workflows', {
      name: 'gate',
      steps: [
        { name: 'ship it', kind: 'approval', agents: [] },
        { name: 'after', kind: 'agent', agents: [], command: 'true' },
      ],
    });
    expect(defined.status).toBe(201);
    const started = await owner.post('/workflows/gate/start', { project_id: projectId, variables: {} });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const approval = () => messages(devices.owner).find((m) => m.title === 'Approval waiting');
    await expect.poll(approval, { timeout: 30_000 }).toBeDefined();
    expect(approval()).toEqual({
      title: 'Approval waiting',
      body: 'workflow "gate" waits for approval of "ship it"',
      url: '/workflows',
      tag: expect.stringMatching(/^attention-\d+$/),
    });
    // Both events were sent by now: the outsider (no access to the project) got neither, the
    // member only the agent's, from before they were disabled.
    expect(arrivals(devices.outsider)).toEqual([]);
    expect(messages(devices.member).map((m) => m.title)).not.toContain('Approval waiting');
    expect(messages(devices.member).map((m) => m.title)).toContain('Agent needs input');
  }, 60_000);

  test('a push rule replaces the default; its test goes to every device; a rule takes no target', async () => {
    const withTarget = await owner.post('/notifications/rules', {
      event: 'notification.test',
      channel: 'push',
      target: 'https://push.example.test/x',
    });
    expect(withTarget.body.error.code).toBe('VALIDATION_FAILED');
    const rule = await owner.post('/notifications/rules', { event: 'notification.test', channel: 'push' });
    expect(rule.status).toBe(201);
    const before = arrivals(devices.owner).length;
    const tested = await owner.post('/notifications/test', { rule_id: rule.body.id });
    expect(tested.body.results).toEqual([
      expect.objectContaining({ rule_id: rule.body.id, channel: 'push', outcome: 'delivered', status: 201 }),
    ]);
    const pushed = arrivals(devices.owner);
    expect(pushed).toHaveLength(before + 1);
    expect(open(devices.owner, pushed.at(-1)!)).toEqual({
      title: 'workspaced',
      body: 'test notification requested by owner',
      url: '/attention',
      tag: 'notification-test',
    });
  });

  test('a push service answering 410 removes the subscription; a 500 is retried', async () => {
    const flaky = new PushDevice(`${pushService.url}/device/flaky`);
    const gone = new PushDevice(`${pushService.url}/device/gone`);
    await subscribe(owner, flaky);
    const goneId = await subscribe(owner, gone);
    pushService.nextStatuses.set('/device/flaky', [500]);
    pushService.nextStatuses.set('/device/gone', [410]);
    const tested = await owner.post('/notifications/test', {});
    expect(tested.body.results).toEqual([
      expect.objectContaining({
        channel: 'push',
        outcome: 'failed',
        status: 410,
        error: expect.stringContaining('1 of 3 devices'),
      }),
    ]);
    const flakyArrivals = arrivals(flaky);
    expect(flakyArrivals).toHaveLength(2);
    expect(open(flaky, flakyArrivals[1]!)).toMatchObject({ tag: 'notification-test' });
    expect(arrivals(gone)).toHaveLength(1);
    const ids = (await owner.get('/push/subscriptions')).body.subscriptions.map((s: { id: number }) => s.id);
    expect(ids).not.toContain(goneId);
    expect(ids).toHaveLength(2);
  });
});

test('a restart keeps the key pair; without --allow-private-targets a loopback endpoint is refused', async () => {
  await daemon.stop();
  const { dataDir } = daemon;
  await expect(startDaemon({ dataDir, args: ['--push-subject', 'ftp://ops.example.test'] })).rejects.toThrow(
    'the push subject must be a mailto: address or an https: URL',
  );
  const keyFile = path.join(dataDir, 'push-vapid.json');
  await chmod(keyFile, 0o644);
  await expect(startDaemon({ dataDir })).rejects.toThrow(
    `the VAPID keys ${keyFile} are readable by group or others`,
  );
  await chmod(keyFile, 0o600);
  daemon = await startDaemon({ dataDir });
  const client = new Client(daemon.url);
  expect((await client.post('/login', { username: 'owner', password: ownerPassword })).status).toBe(200);
  expect((await client.get('/push/subscriptions')).body.vapid_public_key).toBe(vapidKey);
  const loopback = await client.post(
    '/push/subscriptions',
    new PushDevice(`${pushService.url}/x`).subscription(),
  );
  expect(loopback.status).toBe(422);
  expect(loopback.body.error.code).toBe('TARGET_REFUSED');
});
