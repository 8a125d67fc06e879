/**
 * @module Tests: a competing firewall manager (a native nftables table filtering the input hook
 * with a drop policy) in the agent's namespace, through the bins. `POST /firewall/transactions` answers 409 FW_BACKEND_CONFLICT with the manager, nothing
 * changes in the kernel, no restore point or transaction is recorded, and `GET /firewall/status`
 * shows the conflict and `read_only`. No notification is raised for a refused write (the answer
 * says it to the one who asked). With `allow_write_on_manager_conflict: true` in the config the
 * same transaction applies.
 */
import { describe, expect, test } from 'vitest';
import { sandboxSave } from '../backends/support/sandbox.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { sandboxedInstallationForFile } from './support/sandboxed-installation.js';

const transaction = {
  actions: [
    { op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '5151' } },
  ],
};
const nftables = {
  manager: 'nftables',
  reason: 'native nftables table inet filter filters the input hook(s) with a drop policy (input)',
};
/** Debian's /etc/nftables.conf shape, with a drop policy. */
const nativeRuleset =
  'table inet filter {\n chain input {\n type filter hook input priority 0; policy drop;\n iif lo accept\n }\n}\n';

describe.skipIf(namespaceSkipReason !== null)('a manager conflict through HTTP', () => {
  const file = sandboxedInstallationForFile(
    { backend: 'iptables', safe_apply_timeout_seconds: 5 },
    async (sandbox) => {
      expect((await sandbox.exec(['nft', '-f', '-'], nativeRuleset)).code).toBe(0);
    },
  );

  test('writes are refused with 409 FW_BACKEND_CONFLICT and change nothing; status shows why', async () => {
    const before = await sandboxSave(file.sandbox);
    for (const safeApply of [true, false]) {
      const refused = await file.host.admin.post('/api/v1/firewall/transactions', {
        ...transaction,
        safe_apply: safeApply,
      });
      expect(refused.status).toBe(409);
      expect(refused.body.error).toMatchObject({
        code: 'FW_BACKEND_CONFLICT',
        message: expect.stringContaining('firewall.allow_write_on_manager_conflict'),
        details: { conflicts: [nftables] },
      });
    }
    expect(await sandboxSave(file.sandbox)).toBe(before);
    expect((await file.host.admin.get('/api/v1/firewall/transactions')).body.data.transactions).toEqual([]);
    expect((await file.host.admin.get('/api/v1/firewall/snapshots')).body.data.snapshots).toEqual([]);

    const status = await file.host.admin.get('/api/v1/firewall/status');
    expect(status.status).toBe(200);
    expect(status.body.data).toMatchObject({
      backend: 'iptables',
      managers: [{ name: 'nftables', role: 'competing', reason: nftables.reason }],
      conflicts: [nftables],
      read_only: true,
      allow_write_on_manager_conflict: false,
    });
    expect(await file.host.notificationCodes()).not.toContain('FW_BACKEND_CONFLICT');
    const refusals = (await file.host.auditEntries()).filter(
      (e) => e.action === 'POST /api/v1/firewall/transactions',
    );
    expect(refusals.map((e) => e.outcome)).toEqual(['rejected', 'rejected']);
  });

  test('with allow_write_on_manager_conflict the same transaction applies, the native table kept', async () => {
    await file.host.restartAgent({
      backend: 'iptables',
      safe_apply_timeout_seconds: 5,
      allow_write_on_manager_conflict: true,
    });
    const status = (await file.host.admin.get('/api/v1/firewall/status')).body.data;
    expect(status).toMatchObject({
      conflicts: [nftables],
      read_only: false,
      allow_write_on_manager_conflict: true,
    });

    const applied = await file.host.admin.post('/api/v1/firewall/transactions', transaction);
    expect(applied.status).toBe(201);
    const { id } = applied.body.data.transaction;
    expect((await file.host.admin.post(`/api/v1/firewall/transactions/${id}/confirm`)).status).toBe(200);
    const save = await sandboxSave(file.sandbox);
    expect(save).toContain('-A FIREWARDEN-INPUT -p tcp -m tcp --dport 5151 -j DROP');
    expect((await file.sandbox.exec(['nft', 'list', 'table', 'inet', 'filter'])).stdout).toContain(
      'policy drop',
    );
  });
});
