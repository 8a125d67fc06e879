/**
 * @module Tests: the ufw backend through the bins. `firewarden agent` (backend ufw) runs in a
 * sandbox with private copies of /etc/ufw and /etc/default and an active ufw; `firewarden serve`
 * drives it. A transaction adds a rule that `GET /firewall/rules` reads back from ufw's
 * user.rules; unconfirmed, the agent rolls it back at the deadline (files byte for byte, kernel
 * rules, foreign rules kept); confirmed, it stays; `firewarden restore create` / `restore apply`
 * round-trip ufw's files; a hand edit inside firewarden's block of before.rules, replaced by a
 * transaction, is kept beside the file, audited and notified.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { blockEnd } from '../../src/engine/ufw-blocklist-rules.js';
import { eventually, sandboxSave, withUfwCopies } from '../backends/support/sandbox.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { rules as canonical } from '../engine/support/rules.js';
import { runCli } from '../support/running-bin.js';
import { sandboxedInstallationForFile } from './support/sandboxed-installation.js';

const mdns = {
  direction: 'in',
  action: 'deny',
  protocol: 'udp',
  destination_port: '5353',
  source: '10.0.0.0/8',
};
const mdnsTuple = '### tuple ### deny udp 5353 0.0.0.0/0 any 10.0.0.0/8 in';
const limited = { direction: 'in', action: 'limit', protocol: 'tcp', destination_port: '2222' };

describe.skipIf(namespaceSkipReason !== null)('ufw through the API and the CLI', () => {
  let ufw: ReturnType<typeof withUfwCopies>;
  const file = sandboxedInstallationForFile(
    { backend: 'ufw', safe_apply_timeout_seconds: 5 },
    async (sandbox) => {
      ufw = withUfwCopies(sandbox);
      expect((await sandbox.exec(['ufw', '--force', 'enable'])).code).toBe(0);
      // As in ufw-backend.test.ts: start from the reloaded state (ufw's first start leaves two v6 lines out).
      expect((await sandbox.exec(['ufw', 'reload'])).code).toBe(0);
    },
  );
  const files = () => ['user.rules', 'user6.rules', 'ufw.conf'].map((f) => ufw.read(f)).join('\n=====\n');
  const readRules = async () => (await file.host.admin.get('/api/v1/firewall/rules')).body.data;
  const transactionState = async (id: string) =>
    (await file.host.admin.get(`/api/v1/firewall/transactions/${id}`)).body.data.transaction.state;

  test('an unconfirmed transaction is live in user.rules, then rolled back by the agent at the deadline', async () => {
    const status = (await file.host.admin.get('/api/v1/firewall/status')).body.data;
    expect(status).toMatchObject({ backend: 'ufw', ufw_active: true, read_only: false });
    const filesBefore = files();
    const kernelBefore = await sandboxSave(file.sandbox);

    const applied = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'add', rule: mdns }],
    });
    expect(applied.status).toBe(201);
    const { id } = applied.body.data.transaction;
    expect(applied.body.data.transaction.state).toBe('pending');
    expect(await readRules()).toMatchObject({ rules: canonical([mdns], 'ufw'), unparsed: [] });
    expect(ufw.read('user.rules')).toContain(mdnsTuple);
    expect(await sandboxSave(file.sandbox)).toContain(
      '-A ufw-user-input -s 10.0.0.0/8 -p udp -m udp --dport 5353 -j DROP',
    );

    await eventually(
      async () => files() === filesBefore && (await sandboxSave(file.sandbox)) === kernelBefore,
      'ufw files and kernel rules back as before the transaction',
    );
    expect((await readRules()).rules).toEqual([]);
    expect(await transactionState(id)).toBe('rolled_back');
    expect(await file.host.notificationCodes()).toContain('FW_TRANSACTION_ROLLED_BACK');
  });

  test('a confirmed transaction stays after its deadline', async () => {
    const applied = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'add', rule: mdns }],
    });
    expect(applied.status).toBe(201);
    const { id, deadline } = applied.body.data.transaction;
    expect((await file.host.admin.post(`/api/v1/firewall/transactions/${id}/confirm`)).status).toBe(200);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(deadline) - Date.now()) + 1_500),
    );
    expect(ufw.read('user.rules')).toContain(mdnsTuple);
    expect((await readRules()).rules).toEqual(canonical([mdns], 'ufw'));
    expect(await transactionState(id)).toBe('confirmed');
  });

  test('restore create and restore apply from the CLI round-trip ufw files and rules', async () => {
    const created = await runCli([
      'restore',
      'create',
      '--name',
      'mdns denied',
      '--json',
      ...file.host.config,
    ]);
    expect(created.code).toBe(0);
    const point = JSON.parse(created.stdout).snapshot;
    const filesAtPoint = files();
    const kernelAtPoint = await sandboxSave(file.sandbox);

    const changed = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [
        { op: 'delete', position: 1 },
        { op: 'add', rule: limited },
      ],
      safe_apply: false,
    });
    expect(changed.status).toBe(201);
    expect((await readRules()).rules).toEqual(canonical([limited], 'ufw'));
    expect(files()).not.toBe(filesAtPoint);

    const restored = await runCli(['restore', 'apply', point.id, ...file.host.config]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`restored ${point.id}`);
    expect(files()).toBe(filesAtPoint);
    expect(await sandboxSave(file.sandbox)).toBe(kernelAtPoint);
    expect((await readRules()).rules).toEqual(canonical([mdns], 'ufw'));
  });

  test("ufw's own chains are foreign rules owned by ufw; its user chains are ours; its DROP policy counts", async () => {
    const { foreign, policies } = await readRules();
    expect(foreign).toContainEqual(
      expect.objectContaining({
        owner: 'ufw',
        family: 'ipv4',
        table: 'filter',
        chain: 'INPUT',
        rule: '-A INPUT -j ufw-before-input',
      }),
    );
    expect(foreign.filter((line: { chain: string }) => line.chain.startsWith('ufw-user-'))).toEqual([]);
    expect(policies).toContainEqual({ family: 'ipv4', table: 'filter', chain: 'INPUT', policy: 'DROP' });
    // With ufw's default deny, dropping the only allow of SSH cuts this session off.
    const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };
    expect(
      (
        await file.host.admin.post('/api/v1/firewall/transactions', {
          actions: [{ op: 'add', rule: ssh }],
          safe_apply: false,
        })
      ).status,
    ).toBe(201);
    const position = (await readRules()).rules.length;
    const refused = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'delete', position }],
      safe_apply: false,
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('FW_LOCKOUT_RISK');
  });
  test('a hand edit inside the blocklist block is kept beside before.rules, audited and notified', async () => {
    const { admin } = file.host;
    const put = await admin.put('/api/v1/firewall/blocklists/abuse', {
      entries: ['192.0.2.7'],
      safe_apply: false,
    });
    expect(put.status).toBe(200);
    const denyAbuse = { direction: 'in', action: 'deny', protocol: 'any', source: '@abuse' };
    const first = await admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'add', rule: denyAbuse }],
      safe_apply: false,
    });
    expect(first.status).toBe(201);
    const edited = ufw.read('before.rules').replace(blockEnd, `# admin: 198.51.100.1 too\n${blockEnd}`);
    writeFileSync(path.join(ufw.ufwDir, 'before.rules'), edited);

    const second = await admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'add', rule: { ...denyAbuse, protocol: 'tcp', destination_port: '23' } }],
      safe_apply: false,
    });
    expect(second.status).toBe(201);
    expect(ufw.read('before.rules')).not.toContain('# admin: 198.51.100.1 too');
    const notification = (await admin.get('/api/v1/notifications?limit=200')).body.data.items.find(
      (item: { code: string }) => item.code === 'FW_HAND_EDITS_REPLACED',
    );
    const [copy] = notification.details.hand_edits_saved as string[];
    expect(copy).toMatch(/^\/etc\/ufw\/before\.rules\.firewarden-hand-edit-/);
    expect(readFileSync(path.join(ufw.ufwDir, path.basename(copy!)), 'utf8')).toBe(edited);
    const audit = (await admin.get('/api/v1/audit?action=firewall.transaction.apply')).body.data.entries.find(
      (entry: { action: string; target: string }) =>
        entry.action === 'firewall.transaction.apply' && entry.target === second.body.data.transaction.id,
    );
    expect(audit.detail.hand_edits_saved).toEqual([copy]);
  });
});
