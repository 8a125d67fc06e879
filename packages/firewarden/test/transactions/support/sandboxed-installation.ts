/**
 * @module Test support: the two bins on one sandbox, as on a host. `firewarden agent` runs inside
 * the sandbox (its network namespace and private mounts) with the installation's config, and
 * `firewarden serve` drives it over the agent socket; an admin is signed in over HTTP. The agent
 * can be restarted with other firewall settings (it reads them only at start).
 */
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { addForeignRules } from '../../backends/support/foreign-rules.js';
import { createSandbox, type Sandbox } from '../../backends/support/sandbox.js';
import { hostRules } from '../../engine/support/netns.js';
import { ApiClient } from '../../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../../support/installation.js';
import { type RunningServer, startServer } from '../../support/running-bin.js';
import { type AgentBin, startAgentBin } from './agent-bin.js';

export interface SandboxedInstallation {
  installation: Installation;
  admin: ApiClient;
  /** `firewarden <args> --config <the installation's>` arguments for runCli. */
  config: string[];
  /** Stops the agent, writes `firewall` settings into the config, starts the agent again. */
  restartAgent(firewall: Record<string, unknown>): Promise<void>;
  /** `code` of each notification, newest first. */
  notificationCodes(): Promise<string[]>;
  auditEntries(): Promise<
    { action: string; outcome: string; target: string; detail: Record<string, unknown> }[]
  >;
  stop(): Promise<void>;
}

export async function startSandboxedInstallation(
  sandbox: Sandbox,
  firewall: Record<string, unknown>,
): Promise<SandboxedInstallation> {
  const installation = (await createInstallation('sqlite'))!;
  const stateDir = path.join(installation.dir, 'agent-state');
  await installation.writeConfig({ firewall });
  await installation.createAdmin();
  const config = ['--config', installation.configFile];
  let agent: AgentBin = await startAgentBin(sandbox, [...config, '--state-dir', stateDir]);
  const server: RunningServer = await startServer(config);
  const admin = new ApiClient(server.url);
  const login = await admin.login('admin', adminPassword);
  if (login.status !== 200) throw new Error(`login failed: ${JSON.stringify(login.body)}`);
  return {
    installation,
    admin,
    config,
    restartAgent: async (settings) => {
      await agent.stop('SIGTERM');
      await installation.writeConfig({ firewall: settings });
      agent = await startAgentBin(sandbox, [...config, '--state-dir', stateDir]);
    },
    notificationCodes: async () =>
      ((await admin.get('/api/v1/notifications?limit=200')).body.data.items as { code: string }[]).map(
        (n) => n.code,
      ),
    auditEntries: async () => (await admin.get('/api/v1/audit?limit=500')).body.data.entries,
    stop: async () => {
      await server.stop();
      await agent.stop('SIGTERM');
      await installation.remove();
    },
  };
}

export interface SandboxedFile {
  sandbox: Sandbox;
  host: SandboxedInstallation;
}

/**
 * Registers a test file's hooks: a sandbox holding another tool's rules (`addForeignRules`),
 * `prepare` (binds, other managers) before the bins start, and at the end everything removed and
 * the host's rules checked unchanged. The fields are set once the hooks ran.
 */
export function sandboxedInstallationForFile(
  firewall: Record<string, unknown>,
  prepare: (sandbox: Sandbox) => Promise<void> | void = () => undefined,
): SandboxedFile {
  const file = {} as SandboxedFile;
  let hostBefore = '';
  beforeAll(async () => {
    hostBefore = await hostRules();
    file.sandbox = await createSandbox();
    await addForeignRules(file.sandbox);
    await prepare(file.sandbox);
    file.host = await startSandboxedInstallation(file.sandbox, firewall);
  });
  afterAll(async () => {
    await file.host?.stop();
    await file.sandbox?.remove();
    expect(await hostRules()).toBe(hostBefore);
  });
  return file;
}
