/**
 * @module Tests: the agent as its own process inside a network namespace, over its real Unix
 * socket: bad input (malformed JSON, unknown operation, bad params, oversized message, a peer
 * outside the group) is refused and changes nothing; validate, apply, read back, restore points,
 * and safe apply rolled back by the agent alone when no confirm comes (also after a SIGKILL of
 * the agent during the window), all checked with the namespace's own iptables-save.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { defaultMaxMessageBytes } from '../../src/agent-protocol/protocol.js';
import { eventually } from '../backends/support/sandbox.js';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from '../engine/support/netns.js';
import { type AgentProcess, bundleAgent, call, exchange, startAgent } from './support/agent-process.js';

const ssh = { direction: 'in', action: 'allow', protocol: 'tcp', destination_port: '22' };
const web = { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '8080', comment: 'no web' };

describe.skipIf(namespaceSkipReason !== null)('the agent over its socket', () => {
  let bundle: string;
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;
  let agent: AgentProcess;

  const filterRules = async () => {
    const [v4, v6] = await Promise.all([ns.exec(['iptables-save']), ns.exec(['ip6tables-save'])]);
    const strip = (text: string) =>
      text
        .split('\n')
        .filter((line) => !line.startsWith('#'))
        .join('\n');
    return `${strip(v4.stdout)}---\n${strip(v6.stdout)}`;
  };

  beforeAll(async () => {
    hostBefore = await hostRules();
    bundle = await bundleAgent();
  });
  afterAll(async () => {
    rmSync(path.dirname(bundle), { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });
  beforeEach(async () => {
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-agent-'));
    await chmod(folder, 0o755);
    // A host always has its filter tables; a fresh namespace creates them on first use.
    for (const tool of ['iptables', 'ip6tables']) await ns.exec([tool, '-P', 'INPUT', 'ACCEPT']);
    agent = await startAgent(bundle, ns.name, folder);
  });
  afterEach(async () => {
    await agent?.stop('SIGKILL');
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
  });

  test('the socket is mode 0660 and a peer outside the group cannot connect', async () => {
    expect(statSync(agent.socketPath).mode & 0o777).toBe(0o660);
    const outsider = spawn(
      process.execPath,
      [
        '-e',
        `require('net').connect(${JSON.stringify(agent.socketPath)}).on('connect',()=>{console.log('connected');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(0)})`,
      ],
      { uid: 65_534, gid: 65_534 },
    );
    let output = '';
    outsider.stdout.on('data', (chunk) => {
      output += chunk;
    });
    await new Promise((resolve) => outsider.once('exit', resolve));
    expect(output.trim()).toBe('EACCES');
  });

  test('malformed JSON, unknown operations, bad params and oversized messages are refused; nothing changes', async () => {
    const before = await filterRules();
    const answers = await exchange(
      agent.socketPath,
      [
        '{"op": "apply", "params": {"rules": [',
        JSON.stringify({ id: 2, op: 'flush_everything' }),
        JSON.stringify({ id: 3, op: 'apply', params: { rules: [web], extra: true } }),
        JSON.stringify({ id: 4, op: 'apply', params: { rules: 'all' } }),
        JSON.stringify({ id: 5, op: '__proto__' }),
        JSON.stringify([1, 2]),
        JSON.stringify({
          id: 7,
          op: 'apply',
          params: { blocklists: { set: [{ name: 'feed', entries: '1.2.3.4' }] } },
        }),
        '',
      ].join('\n'),
      7,
    );
    expect(answers.map((a) => [a.id, a.ok, a.error.code])).toEqual([
      [undefined, false, 'AGENT_REQUEST_INVALID'],
      [2, false, 'AGENT_UNKNOWN_OPERATION'],
      [3, false, 'AGENT_REQUEST_INVALID'],
      [4, false, 'AGENT_REQUEST_INVALID'],
      [5, false, 'AGENT_UNKNOWN_OPERATION'],
      [undefined, false, 'AGENT_REQUEST_INVALID'],
      [7, false, 'AGENT_REQUEST_INVALID'],
    ]);
    // A valid apply hidden behind more than the bound without a newline is never read, let alone run.
    const huge = `{"id": 9, "op": "apply", "params": {"rules": [${JSON.stringify(web)}]}, "pad": "${'x'.repeat(defaultMaxMessageBytes + 1024 * 1024)}"}\n`;
    const [tooLarge, ...rest] = await exchange(agent.socketPath, huge);
    expect(tooLarge).toMatchObject({ ok: false, error: { code: 'AGENT_MESSAGE_TOO_LARGE' } });
    expect(rest).toEqual([]);
    expect(await filterRules()).toBe(before);
    // The agent still serves others.
    expect((await call(agent.socketPath, 'status')).ok).toBe(true);
  });

  test('validate reports every invalid field and the conflicts of valid rules', async () => {
    const invalid = await call(agent.socketPath, 'validate', {
      rules: [ssh, { ...ssh, destination_port: '0' }, { ...ssh, action: 'limit', source: 'nowhere' }],
    });
    expect(invalid.error.code).toBe('FW_VALIDATION_FAILED');
    expect(invalid.error.details.errors.map((e: { path: string }) => e.path)).toEqual([
      'rules.1.destination_port',
      'rules.2.source',
      'rules.2.action',
    ]);
    const valid = await call(agent.socketPath, 'validate', { rules: [ssh, ssh] });
    expect(valid.ok).toBe(true);
    expect(valid.result.conflicts.map((c: { code: string }) => c.code)).toEqual(['DUPLICATE_RULE']);
  });

  test('apply replaces only our chains, reads back equal, and a restore point brings the old state back', async () => {
    await ns.exec(['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '9', '-j', 'DROP']);
    const manual = await call(agent.socketPath, 'snapshot', { kind: 'manual', note: 'before tests' });
    expect(manual.result).toMatchObject({ kind: 'manual', note: 'before tests' });
    const before = await filterRules();
    const applied = await call(agent.socketPath, 'apply', { rules: [ssh, web] });
    expect(applied.ok).toBe(true);
    const save = (await ns.exec(['iptables-save'])).stdout;
    expect(save).toContain(
      '-A FIREWARDEN-INPUT -p tcp -m tcp --dport 8080 -m comment --comment "no web" -j DROP',
    );
    expect(save).toContain('-A INPUT -p tcp -m tcp --dport 9 -j DROP');
    const read = await call(agent.socketPath, 'read_rules');
    expect(
      read.result.rules.map((r: { destination_port: string; family: string }) => [
        r.destination_port,
        r.family,
      ]),
    ).toEqual([
      ['22', 'both'],
      ['8080', 'both'],
    ]);
    const list = await call(agent.socketPath, 'list_snapshots');
    expect(list.result.snapshots.map((s: { kind: string }) => s.kind).sort()).toEqual([
      'automatic',
      'manual',
    ]);
    const restored = await call(agent.socketPath, 'restore', { snapshot_id: manual.result.id });
    expect(restored.ok).toBe(true);
    expect(await filterRules()).toBe(before);
    expect((await call(agent.socketPath, 'restore', { snapshot_id: '../../etc/passwd' })).error.code).toBe(
      'FW_SNAPSHOT_NOT_FOUND',
    );
  });

  test('safe apply rolls back on its own when no confirm comes, and stays when confirmed', async () => {
    const before = await filterRules();
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [web], timeout_seconds: 2 });
    expect(begun.ok).toBe(true);
    expect(await filterRules()).toContain('--dport 8080');
    expect(
      (await call(agent.socketPath, 'begin_safe_apply', { rules: [ssh], timeout_seconds: 2 })).error.code,
    ).toBe('FW_TRANSACTION_PENDING');
    await eventually(async () => (await filterRules()) === before, 'rollback to the state before');
    expect(
      (await call(agent.socketPath, 'confirm', { transaction_id: begun.result.transaction_id })).error.code,
    ).toBe('FW_TRANSACTION_NOT_FOUND');

    const kept = await call(agent.socketPath, 'begin_safe_apply', { rules: [web], timeout_seconds: 2 });
    expect((await call(agent.socketPath, 'confirm', { transaction_id: kept.result.transaction_id })).ok).toBe(
      true,
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await filterRules()).toContain('--dport 8080');
    expect((await call(agent.socketPath, 'status')).result.pending_transaction).toBeNull();
  });

  test('an agent killed during the window rolls back when it starts again', async () => {
    const before = await filterRules();
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [web], timeout_seconds: 1 });
    expect(begun.ok).toBe(true);
    await agent.stop('SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await filterRules()).toContain('--dport 8080');
    agent = await startAgent(bundle, ns.name, folder);
    await eventually(async () => (await filterRules()) === before, 'rollback after restart');
  });
});
