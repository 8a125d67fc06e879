/**
 * @module Tests: `firewarden serve --sandbox` started by an unprivileged account (`nobody`), as a
 * newcomer without sudo runs it: the agent goes into an unprivileged user and network namespace
 * (`unshare --user --map-root-user --net`) instead of `ip netns`. The bin says so, the version
 * route says sandbox, the demo rules are in force there, a safe apply is live then rolled back by
 * the agent at its deadline, and the host's iptables-save never changes.
 */
import { execFile } from 'node:child_process';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type RunningBin, startBin } from '@suite/test-kit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../backends/support/sandbox.js';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { childEnvironment, cliPath } from '../support/running-bin.js';

const nobody = { uid: 65534, gid: 65534 };
const password = 'sandbox password 12';
const execFileAsync = promisify(execFile);

/** Whether this kernel lets an unprivileged account make a user and network namespace. */
async function userNamespacesAllowed(): Promise<boolean> {
  if (process.getuid?.() !== 0) return false;
  const probe = [
    '--reuid=65534',
    '--regid=65534',
    '--clear-groups',
    'unshare',
    '--user',
    '--map-root-user',
    '--net',
  ];
  return execFileAsync('setpriv', [...probe, 'true']).then(
    () => true,
    () => false,
  );
}

const runnable = namespaceSkipReason === null && (await userNamespacesAllowed());

describe.skipIf(!runnable)('serve --sandbox as an unprivileged account', () => {
  let hostBefore: string;
  let folder: string;
  let server: RunningBin;
  let admin: ApiClient;

  beforeAll(async () => {
    hostBefore = await hostRules();
    folder = await mkdtemp(path.join(tmpdir(), 'firewarden-sandbox-nobody-'));
    await chown(folder, nobody.uid, nobody.gid);
    const dataDir = path.join(folder, 'data');
    const env = childEnvironment({ HOME: folder, FIREWARDEN_SAFE_APPLY_TIMEOUT: '5' });
    server = await startBin(cliPath, {
      args: ['serve', '--sandbox', '--data-dir', dataDir, '--port', '0'],
      env,
      user: nobody,
    });
    const asNobody = ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cliPath];
    await execFileAsync('setpriv', [...asNobody, 'user', 'create-admin', '--data-dir', dataDir], {
      env: { ...env, FIREWARDEN_ADMIN_PASSWORD: password },
    });
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', password)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    await rm(folder, { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('the bin names the unprivileged namespace; the version says sandbox; the demo rules are in force', async () => {
    expect(server.output()).toContain('an unprivileged user and network namespace (unshare)');
    expect((await admin.get('/api/v1/version')).body.data.sandbox).toBe(true);
    const rules = (await admin.get('/api/v1/firewall/rules')).body.data.rules;
    expect(rules.map((r: { comment: string }) => r.comment)).toContain('demo: ssh');
    expect(await hostRules()).toBe(hostBefore);
  });

  test('a safe apply is live in the namespace, then rolled back by the agent at its deadline', async () => {
    const before = (await admin.get('/api/v1/firewall/rules')).body.data.rules;
    const applied = await admin.post('/api/v1/firewall/transactions', {
      actions: [
        { op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '8080' } },
      ],
    });
    expect(applied.status).toBe(201);
    expect((await admin.get('/api/v1/firewall/rules')).body.data.rules).toHaveLength(before.length + 1);
    expect(await hostRules()).toBe(hostBefore);
    await eventually(
      async () => (await admin.get('/api/v1/firewall/status')).body.data.pending_transaction === null,
      'the rollback',
    );
    expect((await admin.get('/api/v1/firewall/rules')).body.data.rules).toEqual(before);
  });
});
