/**
 * @module Tests: a transaction whose apply fails, through the bins. `firewarden agent` runs in a
 * sandbox whose `ip6tables-nft-restore` refuses one write (after its dry run passed, with IPv4
 * already written) or has another writer touch our chain right after it (the verification reads
 * back something else). Through HTTP the transaction answers 500 FW_APPLY_FAILED and is recorded
 * `failed`; both families' iptables-save (our chains and the foreign rules) are as before, byte
 * for byte; the audit has the failure and a critical notification exists.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { sandboxSave } from '../backends/support/sandbox.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { injectedRefusal, withFaultyIp6tablesRestore } from './support/faulty-ip6tables-restore.js';
import { sandboxedInstallationForFile } from './support/sandboxed-installation.js';

const ports = { refusePort: 4242, racePort: 4343, raceRulePort: 4344 };
const deny = (port: number) => ({
  op: 'add',
  rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: String(port) },
});

describe.skipIf(namespaceSkipReason !== null)('a failed apply through HTTP', () => {
  const file = sandboxedInstallationForFile(
    { backend: 'iptables', safe_apply_timeout_seconds: 5 },
    (sandbox) => withFaultyIp6tablesRestore(sandbox, ports),
  );

  beforeAll(async () => {
    // Our chains hold a rule already: a failure must leave it too.
    const first = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [
        { op: 'add', rule: { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '80' } },
      ],
      safe_apply: false,
    });
    expect(first.status).toBe(201);
  });

  /** Sends the transaction, expects FW_APPLY_FAILED and the kernel as before; returns the API error. */
  const failingTransaction = async (port: number, safeApply: boolean) => {
    const before = await sandboxSave(file.sandbox);
    expect(before).toContain('-A FIREWARDEN-INPUT -p tcp -m tcp --dport 80 -j ACCEPT');
    const answer = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [deny(port)],
      safe_apply: safeApply,
    });
    expect(answer.status).toBe(500);
    expect(answer.body.error.code).toBe('FW_APPLY_FAILED');
    const after = await sandboxSave(file.sandbox);
    expect(after).toBe(before);
    expect(after).not.toContain(`--dport ${port}`);

    const [latest] = (await file.host.admin.get('/api/v1/firewall/transactions')).body.data.transactions;
    expect(latest).toMatchObject({
      state: 'failed',
      actions: [deny(port)],
      restore_point_id: null,
      deadline: null,
      error: answer.body.error.message,
    });
    const entry = (await file.host.auditEntries()).find(
      (e) => e.action === 'firewall.transaction.apply' && e.target === latest.id,
    );
    expect(entry).toMatchObject({
      outcome: 'failure',
      detail: { code: 'FW_APPLY_FAILED', message: answer.body.error.message },
    });
    const notification = (await file.host.admin.get('/api/v1/notifications?limit=200')).body.data.items.find(
      (n: { details: { transaction_id?: string } }) => n.details.transaction_id === latest.id,
    );
    expect(notification).toMatchObject({
      severity: 'critical',
      code: 'FW_APPLY_FAILED',
      message: `Transaction ${latest.id} failed; the previous rules were restored.`,
    });
    return answer.body.error as { message: string; details?: Record<string, unknown> };
  };

  test('the IPv6 write refused after IPv4 was written: failed, IPv4 undone, nothing else touched', async () => {
    const error = await failingTransaction(ports.refusePort, true);
    expect(error).toMatchObject({
      message: 'ip6tables-nft-restore refused the ruleset',
      details: { family: 'ipv6', stderr: expect.stringContaining(injectedRefusal) },
    });
    // No safe apply was left pending: the next transaction is accepted at once.
    expect((await file.host.admin.get('/api/v1/firewall/status')).body.data.pending_transaction).toBeNull();
  });

  test('another writer changes our chain right after the write: the read-back check fails and rolls back', async () => {
    const { message } = await failingTransaction(ports.racePort, false);
    expect(message).toBe('the ipv6 rules read back differ from the rules applied');
  });

  test('the same kind of change with another port applies (the injection is the only cause)', async () => {
    const applied = await file.host.admin.post('/api/v1/firewall/transactions', {
      actions: [deny(4545)],
      safe_apply: false,
    });
    expect(applied.status).toBe(201);
    const save = await sandboxSave(file.sandbox);
    expect(
      save.split('\n').filter((line) => line === '-A FIREWARDEN-INPUT -p tcp -m tcp --dport 4545 -j DROP'),
    ).toHaveLength(2);
  });
});
