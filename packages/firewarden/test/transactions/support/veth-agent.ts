/**
 * @module Test support: an installation whose `firewarden agent` runs in the managed namespace
 * of a veth pair (its socket and state in a temporary folder), as on a host; the caller starts
 * `serve` against it. `remove` stops the agent (SIGTERM, which must exit 0) and deletes it all.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInstallation, type Installation } from '../../support/installation.js';
import { type AgentBin, startAgentBin } from './agent-bin.js';
import { createVethPair, type VethPair } from './veth-pair.js';

export interface VethAgent {
  pair: VethPair;
  folder: string;
  installation: Installation;
  agent: AgentBin;
  /** The agent's exit code, then everything removed. */
  remove(): Promise<number | null>;
}

export async function startVethAgent(
  subnet: string,
  port: number,
  safeApplySeconds: number,
): Promise<VethAgent> {
  const pair = await createVethPair(subnet, port);
  const folder = mkdtempSync(path.join(tmpdir(), 'fw-transactions-'));
  await chmod(folder, 0o755);
  const installation = (await createInstallation('sqlite'))!;
  await installation.writeConfig({
    agent: { socket_path: path.join(folder, 'agent.sock') },
    firewall: { safe_apply_timeout_seconds: safeApplySeconds },
  });
  await installation.createAdmin();
  const agent = await startAgentBin(pair.managed.name, [
    '--config',
    installation.configFile,
    '--state-dir',
    path.join(folder, 'state'),
  ]);
  return {
    pair,
    folder,
    installation,
    agent,
    remove: async () => {
      // SIGTERM: the agent closes its socket and exits 0.
      const code = await agent.stop('SIGTERM');
      await installation.remove();
      await pair.remove();
      rmSync(folder, { recursive: true, force: true });
      return code;
    },
  };
}
