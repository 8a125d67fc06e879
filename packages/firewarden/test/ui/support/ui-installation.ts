/**
 * @module Test support for the web UI: the built `firewarden serve` whose agent (`firewarden
 * agent`) manages iptables in a network namespace behind a veth pair, an admin signed in over
 * the API (for checks from the outside), and headless Chromium (`/usr/bin/chromium`, offline).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { ApiClient } from '../../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../../support/installation.js';
import { type RunningServer, startServer } from '../../support/running-bin.js';
import { type AgentBin, startAgentBin } from '../../transactions/support/agent-bin.js';
import { createVethPair, type VethPair } from '../../transactions/support/veth-pair.js';

export { adminPassword };

export interface UiInstallation {
  server: RunningServer;
  admin: ApiClient;
  browser: Browser;
  /** The config file of this installation (for CLI commands such as `extension install`). */
  configFile: string;
  /** The rules of our own chain in the namespace, as `iptables-save` prints them. */
  ownChain: () => Promise<string>;
  /** Runs argv in the agent's namespace (another tool's rules, a check). */
  exec: VethPair['managed']['exec'];
  /** The agent's socket path (`agent.socket_path`), for something else to listen at once it is stopped. */
  agentSocket: string;
  /** Stops the agent (SIGTERM): the server stays up and answers `FW_AGENT_UNAVAILABLE`. */
  stopAgent: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function startUiInstallation(subnet: string, safeApplySeconds: number): Promise<UiInstallation> {
  const pair: VethPair = await createVethPair(subnet, 8080);
  const folder = mkdtempSync(path.join(tmpdir(), 'fw-ui-'));
  await chmod(folder, 0o755);
  const installation: Installation = (await createInstallation('sqlite'))!;
  const agentSocket = path.join(folder, 'agent.sock');
  await installation.writeConfig({
    agent: { socket_path: agentSocket },
    firewall: { safe_apply_timeout_seconds: safeApplySeconds },
  });
  await installation.createAdmin();
  const agent: AgentBin = await startAgentBin(pair.managed.name, [
    '--config',
    installation.configFile,
    '--state-dir',
    path.join(folder, 'state'),
  ]);
  const server = await startServer(['--config', installation.configFile]);
  const admin = new ApiClient(server.url);
  expect((await admin.login('admin', adminPassword)).status).toBe(200);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  return {
    server,
    admin,
    browser,
    configFile: installation.configFile,
    exec: (argv, input) => pair.managed.exec(argv, input),
    agentSocket,
    stopAgent: async () => {
      await agent.stop('SIGTERM');
    },
    ownChain: async () =>
      (await pair.managed.exec(['iptables-save', '-t', 'filter'])).stdout
        .split('\n')
        .filter((line) => line.startsWith('-A FIREWARDEN-INPUT'))
        .join('\n'),
    stop: async () => {
      await browser.close();
      await server.stop();
      await agent.stop('SIGTERM');
      await installation.remove();
      await pair.remove();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Signs in through the login form with the mouse-free path a keyboard user takes. */
export async function signInWithKeyboard(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('heading', { name: 'Sign in to firewarden' }).waitFor();
  await page.keyboard.press('Tab');
  await page.keyboard.type('admin');
  await page.keyboard.press('Tab');
  await page.keyboard.type(adminPassword);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
}
