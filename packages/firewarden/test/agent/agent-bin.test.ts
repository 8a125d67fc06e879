/**
 * @module Tests: the `firewarden agent` bin itself (inside a throwaway network namespace): the
 * socket from `agent.socket_path` (here through `FIREWARDEN_AGENT_SOCKET`) is mode 0660 and
 * owned by the `--group`, the agent answers on it, and SIGTERM closes it with exit 0.
 */
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createNamespace, hostRules, type Namespace, namespaceSkipReason } from '../engine/support/netns.js';
import { startAgentBin } from '../transactions/support/agent-bin.js';
import { call } from './support/agent-process.js';

describe.skipIf(namespaceSkipReason !== null)('firewarden agent (the bin)', () => {
  let hostBefore: string;
  let ns: Namespace;
  let folder: string;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ns = await createNamespace();
    folder = mkdtempSync(path.join(tmpdir(), 'fw-agent-bin-'));
    await chmod(folder, 0o755);
  });
  afterAll(async () => {
    await ns?.remove();
    rmSync(folder, { recursive: true, force: true });
    expect(await hostRules()).toBe(hostBefore);
  });

  test('socket 0660 for the group, answers, and exits 0 on SIGTERM', async () => {
    const socketPath = path.join(folder, 'agent.sock');
    const agent = await startAgentBin(
      ns.name,
      ['--group', '4242', '--state-dir', path.join(folder, 'state')],
      {
        FIREWARDEN_AGENT_SOCKET: socketPath,
      },
    );
    const stat = statSync(socketPath);
    expect(stat.isSocket()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o660);
    expect(stat.gid).toBe(4242);
    expect(statSync(path.join(folder, 'state')).mode & 0o777).toBe(0o700);
    expect(await call(socketPath, 'status')).toMatchObject({ ok: true, result: { backend: 'iptables' } });
    expect(await agent.stop('SIGTERM')).toBe(0);
    expect(existsSync(socketPath)).toBe(false);
  });
});
