/**
 * @module Tests: in Chromium, a host that also runs Docker, fail2ban, CrowdSec and an admin's own
 * iptables line (put into the agent's namespace with the real tools). The dashboard names the
 * cooperating managers, the INPUT/FORWARD/OUTPUT policies, both rule counts and the exposure of
 * the namespace's listener; the rules screen
 * lists the other tools' rules read-only, with their owner, and its search filters them; the
 * firewall stays writable (a rule is added through the UI).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addCooperatingTools } from '../backends/support/cooperating-tools.js';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { signInWithKeyboard, startUiInstallation, type UiInstallation } from './support/ui-installation.js';

describe.skipIf(namespaceSkipReason !== null)('web UI: managers and rules of other tools', () => {
  let hostBefore: string;
  let ui: UiInstallation;
  let page: Page;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ui = await startUiInstallation('10.231.26', 30);
    await addCooperatingTools(ui);
    expect(
      (await ui.exec(['iptables', '-A', 'INPUT', '-p', 'tcp', '--dport', '9999', '-j', 'ACCEPT'])).code,
    ).toBe(0);
    page = await ui.browser.newPage();
  });
  afterAll(async () => {
    await ui?.stop();
    expect(await hostRules()).toBe(hostBefore);
  });

  test('the dashboard names the cooperating managers, the policies and both rule counts', async () => {
    await signInWithKeyboard(page, ui.server.url);
    const managers = page.getByTestId('managers');
    await managers.waitFor();
    for (const name of ['docker', 'fail2ban', 'crowdsec']) {
      expect(
        await managers
          .getByRole('listitem')
          .filter({ hasText: `${name} (cooperating)` })
          .count(),
      ).toBe(1);
    }
    expect(await page.getByTestId('ownership').textContent()).toBe('Managed by firewarden');
    expect(await page.getByTestId('policies').textContent()).toContain('ipv4 INPUT ACCEPT');
    expect(await page.getByTestId('rule-count').textContent()).toBe('0');
    const foreign = (await ui.admin.get('/api/v1/firewall/rules')).body.data.foreign.length;
    expect(foreign).toBeGreaterThan(5);
    expect(await page.getByTestId('foreign-rule-count').textContent()).toBe(String(foreign));
    // The test listener on 8080 (all addresses, no rule on it) is reachable from outside.
    const exposure = page.getByRole('table', { name: /listening sockets/ });
    const row = exposure
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: '8080', exact: true }) });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'tcp',
      '::',
      '8080',
      'node',
      'exposed',
      '-',
    ]);
  });

  test('the rules screen lists the other tools rules read-only, and the search filters them', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Rules' }).click();
    const table = page.getByRole('table', { name: /rules of other tools \(read-only\)/ });
    await table.waitFor();
    const row = (text: string) => table.getByRole('row').filter({ hasText: text });
    expect(await row('-A DOCKER-USER -j RETURN').getByRole('cell').first().textContent()).toBe('docker');
    expect(
      await row('-A INPUT -p tcp -m tcp --dport 9999 -j ACCEPT').getByRole('cell').first().textContent(),
    ).toBe('unknown');
    expect(await row('ip saddr @crowdsec-blacklists drop').getByRole('cell').first().textContent()).toBe(
      'crowdsec',
    );
    // Read-only: no row of another tool offers a change (the header's buttons only sort).
    expect(await table.locator('tbody').getByRole('button').count()).toBe(0);
    await page.getByRole('searchbox').fill('f2b');
    await expect
      .poll(async () => (await table.getByRole('cell', { name: 'fail2ban', exact: true }).count()) > 0)
      .toBe(true);
    expect(await row('DOCKER-USER').count()).toBe(0);
  });

  test('the firewall stays writable: a rule added through the UI is applied beside them', async () => {
    await page.getByRole('searchbox').fill('');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('action').selectOption('deny');
    await page.getByLabel('destination port').fill('8081');
    await page.getByLabel('comment').fill('beside-docker');
    await page.getByRole('button', { name: 'Add to the draft' }).and(page.locator(':enabled')).click();
    await page.getByRole('button', { name: 'Review changes (1)' }).click();
    await page.getByRole('button', { name: 'Apply with safe apply' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.getByTestId('countdown').waitFor();
    expect(await ui.ownChain()).toContain('--dport 8081');
    expect((await ui.exec(['iptables-save'])).stdout).toContain('-A DOCKER-USER -j RETURN');
  });
});
