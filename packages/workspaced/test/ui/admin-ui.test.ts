/**
 * @module Tests: the Admin area of the embedded UI in Chromium against the `workspaced serve` bin
 * (with `--allow-private-targets`, so a webhook may go to a local receiver). A token created in
 * the UI shows its secret once, authenticates a Bearer request and stops after Revoke; a user
 * created in the UI gets a new role and a project membership; a webhook rule made in the UI
 * delivers a signed test POST, is edited, disabled and deleted, and a browser rule's test shows
 * up on the page; the audit screen pages back to the token's creation and tells an intact chain
 * from a tampered one; a developer sees the permission message; hostile names stay text; a
 * phone never scrolls sideways. Every step is checked through the API too.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { bearerRequest } from '../support/bearer.js';
import {
  type Client,
  ownerPassword,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
  userClient,
} from '../support/daemon.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import {
  collectCspViolations,
  desktop,
  dismissToast,
  expectPhoneLayout,
  hostile,
  launchChromium,
  phone as phoneSize,
  signIn,
} from './support/browser.js';

describe('embedded UI: Admin', () => {
  let daemon: RunningDaemon;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let owner: Client;
  let folder: string;
  let cspViolations: string[];

  const adminTab = (target: Page, name: string) =>
    target.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name }).click();
  // Run in the page, where `document` exists (the test's tsconfig has no DOM types).
  const noMarkupRan = async (target: Page) => {
    expect(await target.locator('.admin img').count()).toBe(0);
    expect(await target.title()).toBe('workspaced');
  };

  beforeAll(async () => {
    receiver = await new WebhookReceiver().start();
    daemon = await startDaemon({ args: ['--allow-private-targets', '--delivery-retry-delays-ms', '20,20'] });
    owner = await setupOwner(daemon);
    folder = await mkdtemp(path.join(os.tmpdir(), 'workspaced-admin-ui-'));
    expect((await owner.post('/projects', { name: hostile, path: folder })).status).toBe(201);
    browser = await launchChromium();
    context = await browser.newContext(desktop);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: daemon.url });
    page = await context.newPage();
    cspViolations = collectCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
    await receiver?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  test('the Admin link opens the tabs; a token created in the UI shows its secret once and works as Bearer until revoked', async () => {
    await signIn(page, daemon.url, 'owner', ownerPassword);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    expect(new URL(page.url()).pathname).toBe('/admin');
    await adminTab(page, 'Tokens');
    expect(new URL(page.url()).pathname).toBe('/admin/tokens');

    await page.getByLabel('Token name').fill(hostile);
    await expect.poll(() => page.getByRole('checkbox', { name: /^read/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Create token' }).click();
    const shown = page.getByRole('region', { name: 'New token secret' });
    await shown.getByText('you will not see it again').waitFor();
    const secret = (await shown.getByTestId('token-secret').textContent()) ?? '';
    expect(secret).toMatch(/^wsd_[0-9a-f]{16}_[0-9a-f]{64}$/);
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await dismissToast(page, 'Copied to the clipboard.');
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);

    const listed = page.getByRole('list', { name: 'Tokens' }).getByRole('listitem');
    await listed.getByText(hostile, { exact: true }).waitFor();
    await noMarkupRan(page);
    // The public API takes it: a read token reads, and cannot write.
    const projects = await bearerRequest(daemon, secret, 'GET', '/projects');
    expect(projects.status).toBe(200);
    expect(projects.body.projects[0].name).toBe(hostile);
    expect(
      (await bearerRequest(daemon, secret, 'POST', '/projects', { name: 'x', path: folder })).status,
    ).toBe(403);

    // Hidden, and never again: not after "Done", not after a reload, not in GET /tokens.
    await shown.getByRole('button', { name: 'Done, hide it' }).click();
    await shown.waitFor({ state: 'detached' });
    expect(await page.content()).not.toContain(secret.slice(4));
    await page.reload();
    await listed.getByText(hostile, { exact: true }).waitFor();
    expect(await page.content()).not.toContain(secret.slice(4));
    expect(JSON.stringify((await owner.get('/tokens')).body)).not.toContain(secret.slice(4));

    // Revoke asks first; "Keep it" keeps it.
    await page.getByRole('button', { name: `Revoke ${hostile}` }).click();
    const confirm = page.getByRole('group', { name: `Confirm revoking ${hostile}` });
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    expect((await bearerRequest(daemon, secret, 'GET', '/projects')).status).toBe(200);
    await page.getByRole('button', { name: `Revoke ${hostile}` }).click();
    await confirm.getByRole('button', { name: 'Yes, revoke' }).click();
    await listed.getByText(/^revoked /).waitFor();
    const refused = await bearerRequest(daemon, secret, 'GET', '/projects');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('AUTH_INVALID_TOKEN');
    expect((await owner.get('/tokens')).body.tokens[0].revoked_at).not.toBeNull();
  });

  test('a user created in the UI gets a new role, is made a project member, and the last owner stays', async () => {
    await adminTab(page, 'Users and roles');
    await page.getByLabel('New username').fill('carol');
    await page.getByLabel('Display name (optional)').fill(hostile);
    await page.getByLabel('Initial password').fill('carol password 123');
    await page.getByRole('form', { name: 'New user' }).getByLabel('Role').selectOption('developer');
    await page.getByRole('button', { name: 'Create user' }).click();
    await dismissToast(page, 'carol created.');
    const users = page.getByRole('list', { name: 'Users' });
    await users.getByText(hostile, { exact: true }).waitFor();
    await noMarkupRan(page);
    const carol = (await owner.get('/users')).body.users.find(
      (user: { username: string }) => user.username === 'carol',
    );
    expect(carol).toMatchObject({ role: 'developer', display_name: hostile, disabled: false });

    await page.getByLabel('Role of carol').selectOption('operator');
    await dismissToast(page, 'carol is now operator.');
    expect(
      (await owner.get('/users')).body.users.find((user: { id: string }) => user.id === carol.id).role,
    ).toBe('operator');
    await page.getByRole('button', { name: 'Disable carol' }).click();
    await page.getByRole('button', { name: 'Enable carol' }).waitFor();
    expect(
      (await owner.get('/users')).body.users.find((user: { id: string }) => user.id === carol.id).disabled,
    ).toBe(true);
    await page.getByRole('button', { name: 'Enable carol' }).click();
    await page.getByRole('button', { name: 'Disable carol' }).waitFor();

    // The daemon's refusal is shown, and nothing changed.
    await page.getByRole('button', { name: 'Disable owner' }).click();
    await page.getByRole('alert').getByText('the last enabled owner cannot be demoted or disabled').waitFor();
    expect((await owner.get('/me')).body.user.disabled).toBe(false);

    // Members of the (hostile-named) project: add carol as a viewer, then make her a developer.
    const members = page.getByRole('list', { name: 'Project members' });
    await members.getByText('No member yet.').waitFor();
    await page.getByLabel('Member username').fill('carol');
    await page.getByRole('form', { name: 'Add a member' }).getByLabel('Project role').selectOption('viewer');
    await page.getByRole('button', { name: 'Add member' }).click();
    await members.getByText('carol', { exact: true }).waitFor();
    expect((await owner.get('/projects/1/members')).body.members).toMatchObject([
      { user_id: carol.id, role: 'viewer' },
    ]);
    await page.getByLabel('Project role of carol').selectOption('developer');
    await expect
      .poll(async () => (await owner.get('/projects/1/members')).body.members[0].role)
      .toBe('developer');
    await page.getByRole('button', { name: 'Remove carol' }).click();
    await members.getByText('No member yet.').waitFor();
    expect((await owner.get('/projects/1/members')).body.members).toEqual([]);
    await noMarkupRan(page);
  });

  test('a webhook rule made in the UI sends a signed test POST; it is edited, disabled and deleted; its secret is never shown after saving; a browser rule test arrives on the page', async () => {
    await adminTab(page, 'Notification rules');
    const form = page.getByRole('form', { name: 'New rule' });
    await form.getByLabel('Event').fill('attention.*');
    await form.getByLabel('Channel').selectOption('webhook');
    await form.getByLabel('Webhook URL').fill(`${receiver.url}/from-ui`);
    await form.getByLabel('Project').selectOption({ label: hostile });
    const secret = await form.getByLabel('Signing secret').inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await form.getByRole('button', { name: 'Create rule' }).click();
    await dismissToast(page, 'Rule 1 saved.');
    const rules = page.getByRole('list', { name: 'Notification rules' });
    await rules.getByText(`${receiver.url}/from-ui`).waitFor();
    expect(await page.content()).not.toContain(secret);
    expect((await owner.get('/notifications/rules')).body.rules).toMatchObject([
      { id: 1, event: 'attention.*', channel: 'webhook', target: `${receiver.url}/from-ui`, project_id: 1 },
    ]);

    await page.getByRole('button', { name: 'Send test through rule 1' }).click();
    await dismissToast(page, 'Test through rule 1: delivered (HTTP 204)');
    const [delivered] = await receiver.waitFor('/from-ui');
    expect(delivered.method).toBe('POST');
    expect(delivered.headers['x-workspaced-event']).toBe('notification.test');
    expect(delivered.headers['x-workspaced-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(delivered.body).digest('hex')}`,
    );
    expect(JSON.parse(delivered.body)).toMatchObject({ rule_id: 1, event: 'notification.test' });

    // Edit: the form comes back without the secret; an empty secret keeps the old one.
    await page.getByRole('button', { name: 'Edit rule 1' }).click();
    const editForm = page.getByRole('form', { name: 'Edit rule' });
    expect(await editForm.getByLabel('New signing secret (empty: keep the current one)').inputValue()).toBe(
      '',
    );
    await editForm.getByLabel('Event').fill('task.*');
    await editForm.getByRole('button', { name: 'Save rule' }).click();
    await dismissToast(page, 'Rule 1 saved.');
    expect((await owner.get('/notifications/rules/1')).body).toMatchObject({
      event: 'task.*',
      enabled: true,
    });
    await page.getByRole('button', { name: 'Send test through rule 1' }).click();
    await dismissToast(page, 'Test through rule 1: delivered (HTTP 204)');
    const [, again] = await receiver.waitFor('/from-ui', 2);
    expect(again.headers['x-workspaced-signature']).toBe(
      `sha256=${createHmac('sha256', secret).update(again.body).digest('hex')}`,
    );

    await page.getByRole('button', { name: 'Disable rule 1' }).click();
    await page.getByRole('button', { name: 'Enable rule 1' }).waitFor();
    expect((await owner.get('/notifications/rules/1')).body.enabled).toBe(false);

    await page.getByRole('button', { name: 'Delete rule 1' }).click();
    await page.getByRole('button', { name: 'Yes, delete rule 1' }).click();
    await rules.getByText('No rule yet.').waitFor();
    expect((await owner.get('/notifications/rules')).body.rules).toEqual([]);

    // A browser rule delivers to the user's own stream, which this screen lists.
    await form.getByLabel('Event').fill('*');
    await form.getByLabel('Channel').selectOption('browser');
    await expect.poll(() => form.getByLabel('Webhook URL').count()).toBe(0);
    await form.getByRole('button', { name: 'Create rule' }).click();
    await dismissToast(page, 'Rule 2 saved.');
    await page.getByRole('button', { name: 'Send test through rule 2' }).click();
    await dismissToast(page, 'Test through rule 2: sent to your browser stream');
    await page
      .getByRole('list', { name: 'Received in this tab' })
      .getByText('test notification requested by owner')
      .waitFor();
    expect((await owner.get('/notifications/rules/2')).body).toMatchObject({
      channel: 'browser',
      target: '',
    });
  });

  test('the audit screen pages back to the token creation, filters, and tells an intact chain from a tampered one', async () => {
    // 60 more entries (refused revocations), so the token creation is past the first page of 50.
    for (let index = 0; index < 60; index++)
      expect((await owner.post('/tokens/0000000000000000/revoke')).status).toBe(404);
    await adminTab(page, 'Audit');
    await page
      .getByTestId('chain-verdict')
      .getByText(/^Chain intact: \d+ entries$/)
      .waitFor();
    const entries = page.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await expect.poll(() => entries.count()).toBe(50);
    expect(await entries.first().textContent()).toContain('POST /tokens/:id/revoke');
    const creation = entries.filter({ hasText: 'POST /tokens' }).filter({ hasNotText: 'revoke' });
    expect(await creation.count()).toBe(0);
    await page.getByRole('button', { name: 'Load older entries' }).click();
    await creation.first().waitFor();
    expect(await creation.first().textContent()).toContain('owner');
    expect(await creation.first().textContent()).toContain('success');

    await page.getByLabel('Action').fill('POST /tokens');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => entries.count()).toBe(1);
    const filtered = (await owner.get('/audit?action=POST%20%2Ftokens')).body.entries;
    expect(filtered).toHaveLength(1);
    expect(await entries.first().textContent()).toContain(`#${filtered[0].seq}`);

    // Someone edits the trail behind the daemon's back.
    const database = new Database(path.join(daemon.dataDir, 'workspaced.db'));
    try {
      database.prepare("UPDATE auth_audit SET outcome = 'denied' WHERE seq = ?").run(filtered[0].seq);
    } finally {
      database.close();
    }
    await page.getByRole('button', { name: 'Verify again' }).click();
    await page
      .getByTestId('chain-verdict')
      .getByText(`Chain broken at seq ${filtered[0].seq}: an entry was changed after it was written`)
      .waitFor();
    expect((await owner.get('/audit/verify')).body).toMatchObject({ ok: false, brokenSeq: filtered[0].seq });
  });

  test('a developer manages their own tokens but sees the permission message on users and audit', async () => {
    const { client: dave } = await userClient(daemon, owner, 'dave', 'developer');
    const davePage = await browser.newPage(desktop);
    try {
      await signIn(davePage, `${daemon.url}/admin/users`, 'dave', 'dave password 123');
      await davePage
        .getByRole('alert')
        .getByText('Only owners and admins manage users: your role does not grant users.view.')
        .waitFor();
      await adminTab(davePage, 'Audit');
      await davePage
        .getByRole('alert')
        .getByText('Only owners and admins read the audit trail: your role does not grant audit.view.')
        .waitFor();
      await adminTab(davePage, 'Tokens');
      await davePage.getByLabel('Token name').fill('dave-ci');
      await davePage.getByRole('button', { name: 'Create token' }).click();
      await davePage.getByTestId('token-secret').waitFor();
      // Only dave's own token is listed (not the owner's). The list reloads after the secret
      // shows, and until then holds its one "No token yet." item: wait for the token itself.
      const listed = davePage.getByRole('list', { name: 'Tokens' }).getByRole('listitem');
      await listed.filter({ hasText: 'dave-ci' }).waitFor();
      expect(await listed.count()).toBe(1);
      expect((await dave.get('/tokens')).body.tokens).toMatchObject([{ name: 'dave-ci', scopes: ['read'] }]);
    } finally {
      await davePage.close();
    }
  });

  test('the page ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  test('on a phone (375 px) every Admin tab is one column without sideways scroll, the token secret included', async () => {
    const phone = await browser.newPage(phoneSize);
    try {
      await signIn(phone, `${daemon.url}/admin/notifications`, 'owner', ownerPassword);
      await phone.getByRole('form', { name: 'New rule' }).getByLabel('Channel').selectOption('webhook');
      await phone.getByLabel('Signing secret').waitFor();
      await expectPhoneLayout(phone);

      await adminTab(phone, 'Tokens');
      await phone.getByLabel('Token name').fill(hostile);
      await phone.getByRole('button', { name: 'Create token' }).click();
      await phone.getByTestId('token-secret').waitFor();
      await expectPhoneLayout(phone);
      await phone
        .getByRole('button', { name: `Revoke ${hostile}` })
        .first()
        .click();
      await phone.getByRole('button', { name: 'Yes, revoke' }).waitFor();
      await expectPhoneLayout(phone);

      await adminTab(phone, 'Users and roles');
      await phone.getByLabel('Role of carol').waitFor();
      await expectPhoneLayout(phone);

      await adminTab(phone, 'Audit');
      await phone.getByTestId('chain-verdict').waitFor();
      await phone.getByRole('list', { name: 'Audit entries' }).getByRole('listitem').first().waitFor();
      await expectPhoneLayout(phone);
      await noMarkupRan(phone);
    } finally {
      await phone.close();
    }
  });
});
