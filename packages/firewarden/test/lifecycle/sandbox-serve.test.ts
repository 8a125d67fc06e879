/**
 * @module Tests: `firewarden serve --sandbox` through the bin. Its agent runs in a throwaway
 * network namespace with demo rules: the version route and every page of the UI (Chromium) say
 * "sandbox", the rules screen shows the demo rules, a safe apply through the API is live then
 * rolled back by the agent at its deadline, the namespace is gone once the server stops, and
 * the host's iptables-save is unchanged throughout. In Chromium: sign in, see the demo rules, add
 * a rule, watch the countdown, let it roll back.
 */
import { exec as execCallback } from 'node:child_process';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { eventually } from '../backends/support/sandbox.js';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';

const exec = promisify(execCallback);
const sandboxNamespaces = async () =>
  (await exec('ip netns list')).stdout.split('\n').filter((line) => line.startsWith('firewarden-sandbox-'));

describe.skipIf(namespaceSkipReason !== null)('serve --sandbox', () => {
  let hostBefore: string;
  let namespacesBefore: string[];
  let installation: Installation;
  let server: RunningServer;
  let admin: ApiClient;

  beforeAll(async () => {
    hostBefore = await hostRules();
    namespacesBefore = await sandboxNamespaces();
    installation = (await createInstallation('sqlite'))!;
    await installation.writeConfig({ firewall: { safe_apply_timeout_seconds: 5 } });
    await installation.createAdmin();
    server = await startServer(['--config', installation.configFile, '--sandbox']);
    admin = new ApiClient(server.url);
    expect((await admin.login('admin', adminPassword)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.stop();
    expect(await sandboxNamespaces()).toEqual(namespacesBefore);
    await installation?.remove();
    expect(await hostRules()).toBe(hostBefore);
  });

  test('the version says sandbox; the demo rules are in the namespace, not on the host', async () => {
    expect((await admin.get('/api/v1/version')).body.data.sandbox).toBe(true);
    const rules = (await admin.get('/api/v1/firewall/rules')).body.data.rules;
    expect(rules.map((r: { comment: string }) => r.comment)).toContain('demo: ssh');
    expect(await hostRules()).toBe(hostBefore);
    expect((await sandboxNamespaces()).length).toBe(namespacesBefore.length + 1);
  });

  test('a safe apply is live, then rolled back by the agent at its deadline', async () => {
    const before = (await admin.get('/api/v1/firewall/rules')).body.data.rules;
    const applied = await admin.post('/api/v1/firewall/transactions', {
      actions: [
        { op: 'add', rule: { direction: 'in', action: 'deny', protocol: 'tcp', destination_port: '8080' } },
      ],
    });
    expect(applied.status).toBe(201);
    expect((await admin.get('/api/v1/firewall/status')).body.data.pending_transaction).not.toBeNull();
    expect((await admin.get('/api/v1/firewall/rules')).body.data.rules).toHaveLength(before.length + 1);
    await eventually(
      async () => (await admin.get('/api/v1/firewall/status')).body.data.pending_transaction === null,
      'the rollback',
    );
    expect((await admin.get('/api/v1/firewall/rules')).body.data.rules).toEqual(before);
    expect(await hostRules()).toBe(hostBefore);
  });

  test('every page of the UI says sandbox, the sign-in page too', async () => {
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    try {
      const page = await browser.newPage();
      await page.goto(server.url);
      await page.getByRole('heading', { name: 'Sign in to firewarden' }).waitFor();
      await page.getByTestId('sandbox').waitFor();
      await page.getByLabel('Username').fill('admin');
      await page.getByLabel('Password').fill(adminPassword);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      for (const name of ['Dashboard', 'Rules']) {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
        await page.getByRole('heading', { level: 1, name }).waitFor();
        expect(await page.getByTestId('sandbox').textContent()).toContain('sandbox');
      }
      const table = page.getByRole('table', { name: /rules$/ });
      await expect.poll(() => table.getByRole('cell', { name: 'demo: ssh' }).count()).toBe(1);
      // Add a rule, watch the countdown, let it roll back.
      await page.getByRole('button', { name: 'Add rule' }).click();
      await page.getByLabel('action').selectOption('deny');
      await page.getByLabel('destination port').fill('8080');
      await page.getByLabel('comment').fill('sandbox-try');
      await page.getByRole('button', { name: 'Add to the draft' }).and(page.locator(':enabled')).click();
      await page.getByRole('button', { name: 'Review changes (1)' }).click();
      await page.getByRole('button', { name: 'Apply with safe apply' }).click();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByTestId('countdown').waitFor();
      expect(await page.getByTestId('sandbox').isVisible()).toBe(true);
      await page.getByText('the previous rules are back').waitFor({ timeout: 30_000 });
      const rules = (await admin.get('/api/v1/firewall/rules')).body.data.rules;
      expect(rules.map((r: { comment: string }) => r.comment)).not.toContain('sandbox-try');
    } finally {
      await browser.close();
    }
  });
});
