/**
 * @module Tests: the Blocklists screen and the restore-point comparison in Chromium, against the
 * `firewarden serve` bin whose agent bin keeps the lists as ipset sets in a network namespace. A
 * list pasted with a bad line shows the server's error at that line and writes nothing; fixed,
 * it is saved (safe apply, confirmed on the dashboard) and its merged count is shown and held by
 * the kernel; deleting it while a rule names it is refused with the server's error; the rule's
 * `@abuse` source links to the list's page; a viewer sees the lists without a way to change
 * them; an admin replaces a list from a loaded file; a keyboard-only user creates one and
 * confirms it on the dashboard. A restore point compared with the rules now shows a rule added since as added.
 */
import { tabTo, watchCspViolations } from '@suite/test-kit/page-checks';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import {
  adminPassword,
  signInWithKeyboard,
  startUiInstallation,
  type UiInstallation,
} from './support/ui-installation.js';

/** What the kernel holds in the list's IPv4 set, one member a line, sorted. */
const kernelMembers = async (ui: UiInstallation, name: string) => {
  const listed = await ui.exec(['ipset', 'list', `fw4-${name}`]);
  if (listed.code !== 0) return null;
  return listed.stdout.split('Members:\n')[1]!.trim().split('\n').filter(Boolean).sort();
};

describe.skipIf(namespaceSkipReason !== null)('web UI: blocklists and restore-point comparison', () => {
  let hostBefore: string;
  let ui: UiInstallation;
  let page: Page;

  beforeAll(async () => {
    hostBefore = await hostRules();
    ui = await startUiInstallation('10.231.33', 30);
    page = await ui.browser.newPage({ viewport: { width: 1280, height: 900 } });
    await signInWithKeyboard(page, ui.server.url);
  });
  afterAll(async () => {
    await ui?.stop();
    expect(await hostRules()).toBe(hostBefore);
  });

  const openScreen = async (name: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name }).click();
    await page.getByRole('heading', { level: 1, name }).waitFor();
  };

  test('a pasted list with a bad line shows it inline; fixed, it is saved and its count shown', async () => {
    await openScreen('Blocklists');
    await page.getByText('No blocklist yet.').waitFor();
    await page.getByRole('button', { name: 'New blocklist' }).click();
    const dialog = page.getByRole('dialog', { name: 'New blocklist' });
    await dialog.getByLabel('Name').fill('abuse');
    const entries = dialog.getByLabel('Entries', { exact: true });
    await entries.fill('# abuse feed\n203.0.113.7\n198.51.100.0/24\n\n300.1.1.1\n198.51.100.7');
    await dialog.getByRole('button', { name: 'Save with safe apply' }).click();

    const error = dialog.locator('#blocklist-entries-error');
    await error.waitFor();
    // The fifth line of the text (comments and blank lines counted), as the user sees it.
    expect(await error.textContent()).toMatch(/^line 5 \(300\.1\.1\.1\): /);
    expect(await entries.getAttribute('aria-invalid')).toBe('true');
    expect(await kernelMembers(ui, 'abuse')).toBeNull();

    await entries.fill('# abuse feed\n203.0.113.7\n198.51.100.0/24\n\n192.0.2.0/25\n198.51.100.7');
    await dialog.getByRole('button', { name: 'Save with safe apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    // 198.51.100.7 lies in 198.51.100.0/24: three entries are held.
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'abuse', exact: true }) });
    await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('3');
    expect(await row.getByRole('cell').nth(4).textContent()).toMatch(/ by admin$/);
    expect(await kernelMembers(ui, 'abuse')).toEqual(['192.0.2.0/25', '198.51.100.0/24', '203.0.113.7']);

    // A safe apply: confirmed on the dashboard, so the next changes are not refused as pending.
    await openScreen('Dashboard');
    await page.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The change is confirmed and stays.').waitFor();
  });

  test('a list a rule names is not deleted: the server says which rule; the rule links to the list', async () => {
    const rule = { direction: 'in', action: 'deny', protocol: 'any', source: '@abuse', comment: 'abusers' };
    const applied = await ui.admin.post('/api/v1/firewall/transactions', {
      actions: [{ op: 'add', rule }],
      safe_apply: false,
    });
    expect(applied.status).toBe(201);

    await openScreen('Blocklists');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'abuse', exact: true }) });
    await expect.poll(() => row.getByRole('cell').nth(5).textContent()).toBe('rule 1');
    await row.getByRole('button', { name: 'Delete abuse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete blocklist abuse?' });
    await dialog.getByRole('button', { name: 'Yes, delete abuse' }).click();
    const refusal = dialog.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(
      /\(FW_BLOCKLIST_IN_USE\): rule 1 \(in deny any from @abuse # abusers\)/,
    );
    await page.keyboard.press('Escape');
    expect(await kernelMembers(ui, 'abuse')).toHaveLength(3);

    await openScreen('Rules');
    await page.getByRole('link', { name: '@abuse' }).click();
    await page.waitForURL(/\/blocklists\/abuse$/);
    const detail = page.getByRole('region', { name: 'Blocklist abuse' });
    expect(await detail.getByTestId('blocklist-count').textContent()).toBe('3');
    expect(await detail.getByText('1. in deny any from @abuse # abusers').count()).toBe(1);
    expect((await detail.getByLabel('Entries as the kernel holds them').inputValue()).split('\n')).toEqual([
      '192.0.2.0/25',
      '198.51.100.0/24',
      '203.0.113.7',
    ]);
  });

  test('a restore point compared with the rules now shows a rule added since as added', async () => {
    await openScreen('Restore points');
    await page.getByLabel('Name').fill('before-web');
    await page.getByRole('button', { name: 'Create restore point' }).click();
    await page.getByText('Restore point before-web created.').waitFor();
    const added = await ui.admin.post('/api/v1/firewall/transactions', {
      actions: [
        {
          op: 'add',
          rule: {
            direction: 'in',
            action: 'allow',
            protocol: 'tcp',
            destination_port: '443',
            comment: 'web',
          },
        },
      ],
      safe_apply: false,
    });
    expect(added.status).toBe(201);

    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: 'before-web', exact: true }) });
    await row.getByRole('button', { name: 'Compare with now (before-web)' }).click();
    const table = page.getByRole('table', { name: 'Rules of before-web and the rules now, side by side' });
    await table.waitFor();
    expect(await page.getByTestId('compare-counts').textContent()).toBe(
      'From before-web to the rules now: 1 added, 0 removed, 0 changed, 1 the same.',
    );
    const lines = await table
      .locator('tbody tr')
      .evaluateAll((rows) => rows.map((tr) => [...tr.children].map((cell) => cell.textContent?.trim())));
    expect(lines).toEqual([
      ['same', '1. in deny any from @abuse # abusers', '1. in deny any from @abuse # abusers'],
      ['+ added', 'none', '2. in allow tcp port 443 # web'],
    ]);
  });

  test('a viewer sees the lists and their entries but no way to change them', async () => {
    const created = await ui.admin.post('/api/v1/users', {
      username: 'watcher',
      password: adminPassword,
      role: 'viewer',
    });
    expect(created.status).toBe(201);
    const viewer = await ui.browser.newPage({ viewport: { width: 390, height: 900 } });
    await viewer.goto(`${ui.server.url}/blocklists/abuse`);
    await viewer.getByLabel('Username').fill('watcher');
    await viewer.getByLabel('Password').fill(adminPassword);
    await viewer.getByRole('button', { name: 'Sign in' }).click();
    // Signed in, the page asked for is shown: the list's own page.
    await viewer.getByRole('heading', { level: 1, name: 'Blocklists' }).waitFor();
    expect(await viewer.getByTestId('blocklist-count').textContent()).toBe('3');
    expect(await viewer.getByRole('button', { name: /New blocklist|Replace entries|Delete/ }).count()).toBe(
      0,
    );
    await viewer.close();
  });

  test('an admin replaces a list from a loaded file, starting from the entries held', async () => {
    // On the list's own page, which shows the new entries once saved.
    await page.goto(`${ui.server.url}/blocklists/abuse`);
    const held = page
      .getByRole('region', { name: 'Blocklist abuse' })
      .getByLabel('Entries as the kernel holds them');
    await expect.poll(() => held.inputValue()).toBe('192.0.2.0/25\n198.51.100.0/24\n203.0.113.7');
    await page.getByRole('button', { name: 'Replace entries of abuse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Replace the entries of abuse' });
    const entries = dialog.getByLabel('Entries', { exact: true });
    await expect.poll(() => entries.inputValue()).toBe('192.0.2.0/25\n198.51.100.0/24\n203.0.113.7');
    await dialog.getByLabel('Or load a file').setInputFiles({
      name: 'feed.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('# new feed\n198.18.0.0/15\n203.0.113.7 # kept\n'),
    });
    await expect.poll(() => entries.inputValue()).toBe('# new feed\n198.18.0.0/15\n203.0.113.7 # kept\n');
    await dialog.getByRole('button', { name: 'Save with safe apply' }).click();
    await dialog.waitFor({ state: 'detached' });
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: 'abuse', exact: true }) });
    await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('2');
    expect(await kernelMembers(ui, 'abuse')).toEqual(['198.18.0.0/15', '203.0.113.7']);
    await expect.poll(() => held.inputValue()).toBe('198.18.0.0/15\n203.0.113.7');
    // Confirmed, so the keyboard walk's change is not refused as pending.
    const pending = (await ui.admin.get('/api/v1/firewall/transactions?limit=1')).body.data.transactions[0];
    expect((await ui.admin.post(`/api/v1/firewall/transactions/${pending.id}/confirm`)).status).toBe(200);
  });

  test('keyboard only: a blocklist created in the dialog, then confirmed on the dashboard', async () => {
    const keyboard = await ui.browser.newPage({ viewport: { width: 1280, height: 900 } });
    const csp = watchCspViolations(keyboard);
    await signInWithKeyboard(keyboard, ui.server.url);
    await tabTo(keyboard, 'Blocklists');
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('heading', { level: 1, name: 'Blocklists' }).waitFor();
    await tabTo(keyboard, 'New blocklist');
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('dialog', { name: 'New blocklist' }).waitFor();
    await tabToField(keyboard, 'blocklist-name');
    await keyboard.keyboard.type('typed');
    await tabToField(keyboard, 'blocklist-entries');
    await keyboard.keyboard.type('192.0.2.9\n192.0.2.8/31');
    await tabTo(keyboard, 'Save with safe apply');
    await keyboard.keyboard.press('Enter');
    await keyboard.getByRole('dialog').waitFor({ state: 'detached' });
    const row = keyboard
      .getByRole('row')
      .filter({ has: keyboard.getByRole('link', { name: 'typed', exact: true }) });
    // 192.0.2.9 lies in 192.0.2.8/31.
    await expect.poll(() => row.getByRole('cell').nth(2).textContent()).toBe('1');
    expect(await kernelMembers(ui, 'typed')).toEqual(['192.0.2.8/31']);
    await tabTo(keyboard, 'Dashboard');
    await keyboard.keyboard.press('Enter');
    // As a user does, wait to see the pending change before tabbing to it: on a loaded machine
    // the walk once used up its presses while the dashboard still loaded.
    await keyboard.getByRole('button', { name: 'Confirm', exact: true }).waitFor();
    await tabTo(keyboard, 'Confirm');
    await keyboard.keyboard.press('Enter');
    await keyboard.getByText('The change is confirmed and stays.').waitFor();
    expect(csp).toEqual([]);
    await keyboard.close();
  });
});

/** Tabs until the form control with this id has the focus (an empty field has no text to find it by). */
async function tabToField(page: Page, id: string): Promise<void> {
  for (let press = 0; press < 20; press++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate('document.activeElement?.id')) === id) return;
  }
  throw new Error(`Tab never reached #${id}`);
}
