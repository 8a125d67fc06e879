/**
 * @module Tests: every screen of the web UI measured in Chromium rather than judged by eye. At
 * 1280 and 390 px, in the light and the dark theme (the system setting, emulated): axe-core finds
 * no serious or critical violation, nothing scrolls sideways, the CSP refuses nothing, and a
 * screenshot is written to `test/ui/screenshots/` (git-ignored) for a reviewer; so are the
 * restore-point comparison with the rules now and the blocklist dialog showing a bad line. Also: the theme
 * switch overrides the system and survives a reload, the restore dialog keeps the focus inside,
 * a keyboard-only walk of the main flow (sign in, a rule from a template, the diff, apply,
 * confirm) changes the kernel's rules, the dashboard explains a stopped agent and another program
 * answering on its socket (garbage, an unknown error code), and the first load's JavaScript stays
 * under 200 KB gzipped.
 */
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { horizontalExtent, seriousAxeFindings, tabTo, watchCspViolations } from '@suite/test-kit/page-checks';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { hostRules, namespaceSkipReason } from '../engine/support/netns.js';
import { signInWithKeyboard, startUiInstallation, type UiInstallation } from './support/ui-installation.js';

const screenshots = fileURLToPath(new URL('./screenshots/', import.meta.url));
const distUi = fileURLToPath(new URL('../../dist/ui/', import.meta.url));

const screens = [
  { name: 'dashboard', path: '/' },
  { name: 'rules', path: '/rules' },
  { name: 'blocklists', path: '/blocklists' },
  { name: 'blocklist', path: '/blocklists/abuse' },
  { name: 'rule-editor', path: '/rules/new' },
  { name: 'review', path: '/review' },
  { name: 'restore-points', path: '/restore-points' },
  { name: 'users', path: '/users' },
  { name: 'audit', path: '/audit' },
  { name: 'settings', path: '/settings' },
  { name: 'notifications', path: '/notifications' },
  { name: 'extensions', path: '/extensions' },
];
const widths = [1280, 390];
const themes = ['light', 'dark'] as const;

describe.skipIf(namespaceSkipReason !== null)(
  'web UI screens: accessibility, layout, themes, keyboard',
  () => {
    let hostBefore: string;
    let ui: UiInstallation;

    beforeAll(async () => {
      hostBefore = await hostRules();
      ui = await startUiInstallation('10.231.23', 30);
      mkdirSync(screenshots, { recursive: true });
      // Something on every screen: two rules, a blocklist, restore points (one from before the
      // rules, to compare), an audit trail.
      expect((await ui.admin.post('/api/v1/firewall/snapshots', { name: 'before-rules' })).status).toBe(201);
      const list = await ui.admin.put('/api/v1/firewall/blocklists/abuse', {
        entries: ['203.0.113.0/24', '198.51.100.7', '2001:db8::/48'],
        comment: 'abuse feed',
        safe_apply: false,
      });
      expect(list.status).toBe(200);
      const applied = await ui.admin.post('/api/v1/firewall/transactions', {
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
          {
            op: 'add',
            rule: {
              direction: 'in',
              action: 'deny',
              protocol: 'udp',
              destination_port: '161',
              comment: 'snmp',
            },
          },
        ],
        safe_apply: false,
      });
      expect(applied.status).toBe(201);
      expect((await ui.admin.post('/api/v1/firewall/snapshots', { name: 'before-tests' })).status).toBe(201);
    });
    afterAll(async () => {
      await ui?.stop();
      expect(await hostRules()).toBe(hostBefore);
    });

    async function signedInContext(width: number, theme: (typeof themes)[number]): Promise<BrowserContext> {
      const context = await ui.browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
      const page = await context.newPage();
      await signInWithKeyboard(page, ui.server.url);
      await page.close();
      return context;
    }

    /** Waits for the screen's data, then measures it and writes its screenshot. */
    async function measure(page: Page, shot: string) {
      await page.locator('main h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      // Skeletons gone: the screen shows its data, not its loading state.
      await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 30_000 }).toBe(0);
      await page.screenshot({ path: path.join(screenshots, `${shot}.png`), fullPage: true });
      const [scroll, client] = await horizontalExtent(page);
      expect(scroll, `${shot} scrolls sideways`).toBeLessThanOrEqual(client);
      expect(await seriousAxeFindings(page), `${shot}: axe-core`).toEqual([]);
    }

    for (const theme of themes)
      for (const width of widths)
        test(`every screen at ${width} px in the ${theme} theme`, async () => {
          const login = await ui.browser.newPage({ viewport: { width, height: 900 }, colorScheme: theme });
          const loginCsp = watchCspViolations(login);
          await login.goto(ui.server.url);
          await login.getByRole('heading', { name: 'Sign in to firewarden' }).waitFor();
          await measure(login, `${theme}-${width}-login`);
          expect(loginCsp).toEqual([]);
          await login.close();

          const context = await signedInContext(width, theme);
          const page = await context.newPage();
          const csp = watchCspViolations(page);
          for (const screen of screens) {
            await page.goto(`${ui.server.url}${screen.path}`);
            await measure(page, `${theme}-${width}-${screen.name}`);
          }
          // The restore point from before the rules, compared with the rules now, rule by rule.
          await page.goto(`${ui.server.url}/restore-points`);
          await page.getByRole('button', { name: 'Compare with now (before-rules)' }).click();
          await page.getByRole('table', { name: /^Rules of before-rules and the rules now/ }).waitFor();
          await measure(page, `${theme}-${width}-restore-compare`);
          // The blocklist dialog with the server's error at a bad line.
          await page.goto(`${ui.server.url}/blocklists`);
          await page.getByRole('button', { name: 'New blocklist' }).click();
          const dialog = page.getByRole('dialog', { name: 'New blocklist' });
          await dialog.getByLabel('Name').fill('feed');
          await dialog.getByLabel('Entries', { exact: true }).fill('192.0.2.1\nnot-an-address');
          await dialog.getByRole('button', { name: 'Save with safe apply' }).click();
          await dialog.locator('#blocklist-entries-error').waitFor();
          await measure(page, `${theme}-${width}-blocklist-dialog`);
          // The background follows the system setting.
          const background = await page.evaluate(
            'getComputedStyle(document.documentElement).backgroundColor',
          );
          expect(background).toBe(theme === 'dark' ? 'rgb(15, 20, 25)' : 'rgb(245, 247, 250)');
          expect(csp).toEqual([]);
          await context.close();
        }, 240_000);

    test('the theme switch overrides the system setting and is kept across a reload', async () => {
      const context = await signedInContext(1280, 'light');
      const page = await context.newPage();
      await page.goto(ui.server.url);
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      await page.getByRole('button', { name: 'Dark theme' }).click();
      const background = () => page.evaluate('getComputedStyle(document.documentElement).backgroundColor');
      await expect.poll(background).toBe('rgb(15, 20, 25)');
      expect(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      await page.reload();
      await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
      expect(await background()).toBe('rgb(15, 20, 25)');
      await page.getByRole('button', { name: 'System theme' }).click();
      await expect.poll(background).toBe('rgb(245, 247, 250)');
      await context.close();
    });

    test('the restore dialog takes the focus, keeps it inside and passes the audit', async () => {
      const context = await signedInContext(1280, 'light');
      const page = await context.newPage();
      const csp = watchCspViolations(page);
      await page.goto(`${ui.server.url}/restore-points`);
      const row = page
        .getByRole('row')
        .filter({ has: page.getByRole('cell', { name: 'before-tests', exact: true }) });
      await row.getByRole('button', { name: 'Restore' }).click();
      const dialog = page.getByRole('dialog', { name: 'Restore before-tests?' });
      await dialog.waitFor();
      const focusInDialog = () =>
        page.evaluate(`document.activeElement?.closest('[role="dialog"]') !== null`);
      await expect.poll(focusInDialog).toBe(true);
      for (let press = 0; press < 6; press++) {
        await page.keyboard.press('Tab');
        // Base UI's focus guards (at the popup's edges) hand the focus back inside.
        await expect.poll(focusInDialog).toBe(true);
      }
      await page.screenshot({ path: path.join(screenshots, 'light-1280-restore-dialog.png') });
      expect(await seriousAxeFindings(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // Nothing was restored: the rules are still the two of the set-up.
      expect((await ui.ownChain()).split('\n')).toHaveLength(2);
      expect(csp).toEqual([]);
      await context.close();
    });

    test('keyboard only: sign in, a rule from the SSH template, the diff, apply, confirm', async () => {
      const page = await ui.browser.newPage({ viewport: { width: 1280, height: 900 } });
      const csp = watchCspViolations(page);
      await signInWithKeyboard(page, ui.server.url);
      await tabTo(page, 'Rules');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Rules' }).waitFor();
      await tabTo(page, 'Add rule');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'New rule' }).waitFor();
      await tabTo(page, 'SSH');
      await page.keyboard.press('Space');
      await expect.poll(() => page.getByLabel('destination port').inputValue()).toBe('22');
      await expect.poll(() => page.getByRole('button', { name: 'Add to the draft' }).isEnabled()).toBe(true);
      await tabTo(page, 'Add to the draft');
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Rules' }).waitFor();
      await tabTo(page, 'Review changes (1)');
      await page.keyboard.press('Enter');
      const diff = page.getByRole('list', { name: 'Rule list after the apply' });
      await diff.waitFor();
      await expect.poll(() => diff.getByRole('listitem').count()).toBe(3);
      const lines = await diff.getByRole('listitem').allTextContents();
      expect(lines[0]).toMatch(/^ kept: 1\. in allow tcp port 443\b.*# web$/);
      expect(lines[1]).toMatch(/^ kept: 2\. in deny udp port 161\b.*# snmp$/);
      expect(lines[2]).toMatch(/^\+added: new\. in allow tcp port 22 # ssh$/);
      await page.screenshot({
        path: path.join(screenshots, 'light-1280-review-with-draft.png'),
        fullPage: true,
      });
      expect(await seriousAxeFindings(page)).toEqual([]);
      await tabTo(page, 'Apply with safe apply');
      await page.keyboard.press('Enter');
      await page.getByTestId('countdown').waitFor();
      await page.screenshot({
        path: path.join(screenshots, 'light-1280-dashboard-pending.png'),
        fullPage: true,
      });
      expect(await seriousAxeFindings(page)).toEqual([]);
      expect(await ui.ownChain()).toContain('--dport 22 -m comment --comment ssh -j ACCEPT');
      await tabTo(page, 'Confirm');
      await page.keyboard.press('Enter');
      await page.getByText('The change is confirmed and stays.').waitFor();
      const transactions = await ui.admin.get('/api/v1/firewall/transactions?limit=1');
      expect(transactions.body.data.transactions[0].state).toBe('confirmed');
      expect(csp).toEqual([]);
      await page.close();
    }, 120_000);

    test('a table sorts by a column header and says its order', async () => {
      const context = await signedInContext(1280, 'light');
      const page = await context.newPage();
      await page.goto(`${ui.server.url}/rules`);
      const table = page.getByRole('table', { name: /rules$/ });
      const comments = () =>
        table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => row.children[8]?.textContent));
      // The set-up's two rules and the keyboard walk's SSH rule, in the kernel's order.
      await expect.poll(comments).toEqual(['web', 'snmp', 'ssh']);
      const header = table.getByRole('columnheader', { name: 'comment' });
      await header.getByRole('button').click();
      await expect.poll(comments).toEqual(['snmp', 'ssh', 'web']);
      expect(await header.getAttribute('aria-sort')).toBe('ascending');
      await header.getByRole('button').click();
      await expect.poll(comments).toEqual(['web', 'ssh', 'snmp']);
      expect(await header.getAttribute('aria-sort')).toBe('descending');
      await context.close();
    });

    test('the first load stays under 200 KB of JavaScript gzipped', () => {
      const html = readFileSync(path.join(distUi, 'index.html'), 'utf8');
      const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      const gzipped = scripts.reduce(
        (total, script) => total + gzipSync(readFileSync(path.join(distUi, script)), { level: 9 }).length,
        0,
      );
      expect(gzipped).toBeLessThan(200 * 1024);
    });

    // Last two: they stop the agent.
    test('without an agent the dashboard says why and how to start it; the rest keeps working', async () => {
      await ui.stopAgent();
      for (const theme of themes)
        for (const width of widths) {
          const context = await signedInContext(width, theme);
          const page = await context.newPage();
          await page.goto(ui.server.url);
          await page.getByRole('heading', { name: 'The firewall agent is not running' }).waitFor();
          expect(await page.getByTestId('agent-reason').textContent()).toBe(
            'Why: There is no agent socket at the configured path (agent.socket_path): the agent has not been started, or it listens at another path.',
          );
          await page.getByText('sudo systemctl start firewarden-agent').waitFor();
          await page.getByRole('heading', { name: 'Recent audit' }).waitFor();
          await measure(page, `${theme}-${width}-dashboard-no-agent`);
          await context.close();
        }
    }, 120_000);

    test('another program on the agent socket: garbage is no usable answer, a refusal shows its code', async () => {
      // What answers each request line on the agent's socket path, as the agent would not.
      let answer = 'HTTP/1.1 400 Bad Request';
      const impostor = createServer((socket) => {
        socket.on('error', () => socket.destroy());
        socket.on('data', (chunk) => {
          const requests = chunk.toString('utf8').split('\n').length - 1;
          socket.write(`${answer}\n`.repeat(requests));
        });
      });
      rmSync(ui.agentSocket, { force: true });
      await new Promise<void>((listening) => impostor.listen(ui.agentSocket, listening));
      const refusal = JSON.stringify({
        ok: false,
        error: { code: 'FW_COMMAND_FAILED', message: 'iptables-save failed' },
      });
      try {
        for (const width of widths) {
          answer = 'HTTP/1.1 400 Bad Request';
          const context = await signedInContext(width, 'light');
          const page = await context.newPage();
          await page.goto(ui.server.url);
          await page.getByRole('heading', { name: 'The firewall agent gave no usable answer' }).waitFor();
          expect(await page.getByTestId('agent-reason').textContent()).toMatch(
            /^Why: Something on the agent socket closed the connection or answered with what is not an agent's answer: .*another program listens at the configured path/,
          );
          await page.getByText('sudo ss -xlp | grep agent.sock').waitFor();
          expect(await page.getByTestId('agent-refusal').count()).toBe(0);
          await measure(page, `light-${width}-dashboard-agent-bad-answer`);

          // The agent's own code the API has no code for: the server's `agent_error`.
          answer = refusal;
          await page.getByRole('button', { name: 'Check again' }).click();
          await page
            .getByRole('heading', { name: 'The firewall agent refused to read the firewall' })
            .waitFor();
          expect(await page.getByTestId('agent-reason').textContent()).toMatch(
            /^Why: The agent answered with an error this server has no code for: a firewall command failed on the host, or the agent runs another firewarden version/,
          );
          expect(await page.getByTestId('agent-refusal').textContent()).toMatch(
            /^Its answer: FW_COMMAND_FAILED the agent refused [a-z_]+: iptables-save failed$/,
          );
          await measure(page, `light-${width}-dashboard-agent-refusal`);
          await context.close();
        }
      } finally {
        await new Promise((closed) => impostor.close(closed));
      }
    }, 120_000);
  },
);
