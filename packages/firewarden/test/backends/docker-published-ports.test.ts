/**
 * @module Tests: Docker's published ports follow the inbound rules (`firewall.docker_published_ports:
 * follow`, the default). In a namespace holding Docker's chains and the DNAT of `-p 8080:80` to a
 * second namespace (the container), a probe from a third reaches the container; a deny of tcp/8080
 * stops it through DOCKER-USER (INPUT never sees that traffic), an unconfirmed safe apply of the
 * deny stops it until the rollback lets it through again, and Docker's own chains are untouched.
 * With `ignore` the same deny leaves the published port open, as plain iptables would. The same
 * holds on the ufw backend with ufw active in the namespace: ufw's own input rules never see the
 * forwarded connection, our FIREWARDEN-DOCKER chain written beside ufw's does.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { call } from '../agent/support/agent-process.js';
import { namespaceSkipReason } from '../engine/support/netns.js';
import { type PublishedPort, publishContainerPort } from './support/docker-bridge.js';
import {
  bundledAgentForFile,
  createSandbox,
  eventually,
  type Sandbox,
  type SandboxAgent,
  sandboxSave,
  startSandboxAgent,
  withUfwCopies,
} from './support/sandbox.js';

const deny8080 = { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '8080' };

/** Docker's IPv4 lines: everything but ours (packet counters left out: the probes move them). */
const dockerLines = (save: string) =>
  (save.split('---\n')[0] ?? '')
    .split('\n')
    .filter((line) => !line.includes('FIREWARDEN-'))
    .map((line) => line.replace(/ \[\d+:\d+\]$/, ''))
    .join('\n');

describe.skipIf(namespaceSkipReason !== null)('Docker published ports', () => {
  const bundle = bundledAgentForFile();
  let sandbox: Sandbox;
  let published: PublishedPort;
  let agent: SandboxAgent | undefined;

  beforeEach(async () => {
    sandbox = await createSandbox();
    published = await publishContainerPort(sandbox);
    expect(await published.knock()).toBe('hello');
  });
  afterEach(async () => {
    await agent?.stop();
    agent = undefined;
    await published.remove();
    await sandbox.remove();
  });

  test('a deny on the published port stops the probe; a rollback lets it through', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'iptables' });
    const before = await sandboxSave(sandbox);
    expect((await call(agent.socketPath, 'apply', { rules: [deny8080] })).ok).toBe(true);
    const after = await sandboxSave(sandbox);
    expect(after).toContain('-A DOCKER-USER -j FIREWARDEN-DOCKER');
    expect(after).toContain(
      '-A FIREWARDEN-DOCKER -p tcp -m conntrack --ctstate DNAT --ctorigdstport 8080 --ctdir ORIGINAL -j DROP',
    );
    expect(await published.knock()).toBe('timeout');
    expect(dockerLines(after)).toBe(dockerLines(before));

    // Back to no rules, then the deny again on probation: the rollback opens the port again.
    expect((await call(agent.socketPath, 'apply', { rules: [] })).ok).toBe(true);
    expect(await published.knock()).toBe('hello');
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny8080], timeout_seconds: 6 });
    expect(begun.ok).toBe(true);
    expect(await published.knock()).toBe('timeout');
    await eventually(
      async () => (await call(agent!.socketPath, 'status')).result.pending_transaction === null,
      'the safe apply rolled back',
    );
    expect(await sandboxSave(sandbox)).not.toContain('--ctorigdstport 8080');
    expect(await published.knock()).toBe('hello');
    expect(dockerLines(await sandboxSave(sandbox))).toBe(dockerLines(before));
  });

  test('on the ufw backend, ufw active: the deny stops the probe, the rollback lets it through', async () => {
    withUfwCopies(sandbox);
    expect((await sandbox.exec(['ufw', '--force', 'enable'])).code).toBe(0);
    expect(await published.knock()).toBe('hello');
    agent = await startSandboxAgent(sandbox, bundle(), { backend: 'ufw' });
    expect((await call(agent.socketPath, 'status')).result.backend).toBe('ufw');
    const before = await sandboxSave(sandbox);

    // 8 s: the knock (1.5 s) and the save below must land before the rollback, even on a loaded machine.
    const begun = await call(agent.socketPath, 'begin_safe_apply', { rules: [deny8080], timeout_seconds: 8 });
    expect(begun.ok).toBe(true);
    expect(await published.knock()).toBe('timeout');
    const applied = await sandboxSave(sandbox);
    expect(applied).toContain('-A ufw-user-input -p tcp -m tcp --dport 8080 -j DROP');
    expect(applied).toContain('-A DOCKER-USER -j FIREWARDEN-DOCKER');
    expect(applied).toContain(
      '-A FIREWARDEN-DOCKER -p tcp -m conntrack --ctstate DNAT --ctorigdstport 8080 --ctdir ORIGINAL -j DROP',
    );
    await eventually(
      async () => (await call(agent!.socketPath, 'status')).result.pending_transaction === null,
      'the safe apply rolled back',
    );
    const rolledBack = await sandboxSave(sandbox);
    expect(rolledBack).not.toContain('-A ufw-user-input -p tcp -m tcp --dport 8080');
    expect(rolledBack).not.toContain('FIREWARDEN-DOCKER');
    expect(await published.knock()).toBe('hello');
    expect(dockerLines(rolledBack)).toBe(dockerLines(before));

    // Applied for good: still blocked, Docker's own lines and ufw's chains beside ours unchanged.
    expect((await call(agent.socketPath, 'apply', { rules: [deny8080] })).ok).toBe(true);
    expect(await published.knock()).toBe('timeout');
    const withoutUfwUserRules = (save: string) =>
      dockerLines(save)
        .split('\n')
        .filter((line) => !line.startsWith('-A ufw-user-input'))
        .join('\n');
    expect(withoutUfwUserRules(await sandboxSave(sandbox))).toBe(withoutUfwUserRules(before));
  });

  test('with docker_published_ports: ignore the published port stays open', async () => {
    agent = await startSandboxAgent(sandbox, bundle(), {
      backend: 'iptables',
      dockerPublishedPorts: 'ignore',
    });
    expect((await call(agent.socketPath, 'apply', { rules: [deny8080] })).ok).toBe(true);
    expect(await sandboxSave(sandbox)).not.toContain('FIREWARDEN-DOCKER');
    expect(await published.knock()).toBe('hello');
  });
});
