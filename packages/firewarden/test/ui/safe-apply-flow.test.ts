/**
 * @module Tests: the web UI in Chromium against the `firewarden serve` bin, whose agent bin manages
 * iptables in a network namespace. A keyboard-only sign-in; a rule added in the editor (live
 * validation at its field), reviewed and applied with safe apply; the countdown runs out and the
 * kernel's rules are back; another apply confirmed stays; a restore point created, compared and
 * restored. Every step is checked in iptables too.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { signInWithKeyboard, startUiInstallation, type UiInstallation } from './support/ui-installation.js';

/** The shortest safe-apply window the config accepts. */
const safeApplySeconds = 5;
/** How iptables-save prints the rule the editor adds. */
const dropRule = (comment: string) =>
  `-A FIREWARDEN-INPUT -p tcp -m tcp --dport 8080 -m comment --comment ${comment} -j DROP`;

describe.skipIf(namespaceSkipReason !== null)('web UI: safe apply, confirm, restore points', () => {
  let hostBefore: string;
  let ui: UiInstallation;
  let page: Page;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ui = await startUiInstallation('10.231.21', safeApplySeconds);
    page = await ui.browser.newPage();
  });
  afterAll(async () => {
    await ui?.stop();
    expect(await hostRules()).toBe(hostBefore);
  });

  const openScreen = async (name: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };
  /** Adds "deny tcp/8080" through the editor and applies it from the review screen. */
  const applyDenyThroughTheUi = async (comment: string) => {
    await openScreen('Rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('action').selectOption('deny');
    await page.getByLabel('destination port').fill('8080');
    await page.getByLabel('comment').fill(comment);
    await page.getByRole('button', { name: 'Add to the draft' }).and(page.locator(':enabled')).click();
    await page.getByRole('button', { name: 'Review changes (1)' }).click();
    const added = page.getByRole('table', { name: 'Rules added' });
    await expect.poll(() => added.getByRole('cell', { name: comment }).count()).toBe(1);
    await page.getByRole('button', { name: 'Apply with safe apply' }).click();
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  };

  test('a keyboard-only user signs in and sees the dashboard', async () => {
    await signInWithKeyboard(page, ui.server.url);
    await expect.poll(() => page.getByTestId('backend').textContent()).toContain('iptables');
    expect(await page.getByTestId('rule-count').textContent()).toBe('0');
    expect(await page.getByTestId('last-apply').textContent()).toBe('none yet');
  });

  test('the editor shows the engine error at its field while typing', async () => {
    await openScreen('Rules');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.getByLabel('source', { exact: true }).fill('300.1.1.1');
    const error = page.locator('#rule-source-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/address/i);
    expect(await page.getByLabel('source', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('button', { name: 'Add to the draft' }).isDisabled()).toBe(true);
    await page.getByLabel('source', { exact: true }).fill('10.0.0.0/8');
    await error.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Cancel' }).click();
  });

  test('an applied rule shows the countdown, and without a confirm the previous rules come back', async () => {
    await applyDenyThroughTheUi('first-try');
    await page.getByTestId('countdown').waitFor();
    expect(await ui.ownChain()).toBe(dropRule('first-try'));
    // The countdown is read from the API: a reload shows it again.
    await page.reload();
    await page.getByTestId('countdown').waitFor();
    await page.getByText('the previous rules are back').waitFor({ timeout: (safeApplySeconds + 10) * 1000 });
    expect(await page.getByTestId('countdown').count()).toBe(0);
    expect(await page.getByTestId('rule-count').textContent()).toBe('0');
    expect(await page.getByTestId('last-apply').textContent()).toMatch(/^rolled back/);
    expect(await ui.ownChain()).toBe('');
  }, 60_000);

  test('a confirmed apply stays after its deadline', async () => {
    await applyDenyThroughTheUi('kept');
    await page.getByTestId('countdown').waitFor();
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The change is confirmed and stays.').waitFor();
    await expect.poll(() => page.getByTestId('countdown').count()).toBe(0);
    // Past the deadline the rule is still there.
    await new Promise((resolve) => setTimeout(resolve, (safeApplySeconds + 1) * 1000));
    const transactions = await ui.admin.get('/api/v1/firewall/transactions?limit=1');
    expect(transactions.body.data.transactions[0].state).toBe('confirmed');
    expect(await ui.ownChain()).toBe(dropRule('kept'));
    await page.reload();
    expect(await page.getByTestId('last-apply').textContent()).toMatch(/^confirmed/);
  }, 60_000);

  test('a restore point is created, compared with another and restored', async () => {
    await openScreen('Restore points');
    await page.getByLabel('Name').fill('with-deny');
    await page.getByRole('button', { name: 'Create restore point' }).click();
    await page.getByText('Restore point with-deny created.').waitFor();

    // The rule goes away outside the UI; the restore point brings it back.
    const removal = await ui.admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'delete', position: 1 }],
      safe_apply: false,
    });
    expect(removal.status).toBe(201);
    expect(await ui.ownChain()).toBe('');

    await page.getByLabel('Name').fill('empty');
    await page.getByRole('button', { name: 'Create restore point' }).click();
    await page.getByText('Restore point empty created.').waitFor();
    await page.getByLabel('compare with-deny').check();
    await page.getByLabel('compare empty').check();
    expect(await page.getByTestId('compare-result').textContent()).toBe(
      'The two restore points hold different firewall states.',
    );
    // Rule by rule, the older point first: the deny is gone in the newer one.
    await expect
      .poll(() => page.getByTestId('compare-counts').textContent())
      .toBe('From with-deny to empty: 0 added, 1 removed, 0 changed, 0 the same.');

    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'with-deny', exact: true }) });
    await row.getByRole('button', { name: 'Restore' }).click();
    // The confirm step is a dialog now (focus moves into it).
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, restore with-deny' }).click();
    await page.getByText('The firewall is back to the restore point.').waitFor();
    expect(await ui.ownChain()).toBe(dropRule('kept'));
    await openScreen('Dashboard');
    await expect.poll(() => page.getByTestId('rule-count').textContent()).toBe('1');
  });
});
