/**
 * @module Tests: the users screen in Chromium against the built bin (no agent needed): an admin
 * disables and enables an account, changes its role, sets its password and ends its sessions, and
 * each takes effect on that user's own session over the API; disabling the last admin shows the
 * API's `LAST_ADMIN` refusal.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { adminPassword, createInstallation, type Installation } from '../support/installation.js';
import { type RunningServer, startServer } from '../support/running-bin.js';
import { signInWithKeyboard } from './support/ui-installation.js';

let installation: Installation;
let server: RunningServer;
let browser: Browser;
let page: Page;
let uma: ApiClient;

beforeAll(async () => {
  installation = (await createInstallation('sqlite'))!;
  await installation.createAdmin();
  server = await startServer(['--config', installation.configFile]);
  const admin = new ApiClient(server.url);
  expect((await admin.login('admin', adminPassword)).status).toBe(200);
  expect(
    (await admin.post('/api/v1/users', { username: 'uma', password: adminPassword, role: 'viewer' })).status,
  ).toBe(201);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  page = await browser.newPage();
  await signInWithKeyboard(page, server.url);
  await page.getByRole('link', { name: 'Users' }).click();
  await page.getByRole('heading', { name: 'Users' }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await installation?.remove();
});

async function signInUma(password = adminPassword): Promise<ApiClient> {
  uma = new ApiClient(server.url);
  expect((await uma.login('uma', password)).status).toBe(200);
  return uma;
}

const umaRow = () => page.getByRole('row').filter({ hasText: 'uma' });
const status = (text: string | RegExp) => page.getByText(text).waitFor();

describe('the users screen', () => {
  test('disabling the last admin shows LAST_ADMIN and changes nothing', async () => {
    await page.getByRole('button', { name: 'Disable admin' }).click();
    await status(/LAST_ADMIN/);
    await expect(page.getByRole('button', { name: 'Disable admin' }).isVisible()).resolves.toBe(true);
    // The button is read before the list reloads: the account itself must still sign in.
    expect((await new ApiClient(server.url).login('admin', adminPassword)).status).toBe(200);
  });

  test("disable ends the user's open session at once; enable lets them back in", async () => {
    await signInUma();
    await page.getByRole('button', { name: 'Disable uma' }).click();
    await status('uma disabled; their sessions ended.');
    expect((await uma.get('/api/v1/notifications')).status).toBe(401);
    expect((await new ApiClient(server.url).login('uma', adminPassword)).status).toBe(403);
    await expect(umaRow().getByRole('cell', { name: 'yes', exact: true }).count()).resolves.toBe(1);
    await page.getByRole('button', { name: 'Enable uma' }).click();
    await status('uma enabled.');
    await signInUma();
  });

  test("the role select applies to the user's next request", async () => {
    expect((await uma.get('/api/v1/users')).status).toBe(403);
    await page.getByLabel('Role of uma').selectOption('admin');
    await status('uma is now admin.');
    expect((await uma.get('/api/v1/users')).status).toBe(200);
    await page.getByLabel('Role of uma').selectOption('viewer');
    await status('uma is now viewer.');
    expect((await uma.get('/api/v1/users')).status).toBe(403);
  });

  test('set password: a short one is refused with the API message; a good one ends their sessions', async () => {
    await page.getByLabel('New password for uma').fill('short');
    await page.getByRole('button', { name: 'Set password of uma' }).click();
    await status(/VALIDATION_FAILED/);
    expect((await uma.get('/api/v1/notifications')).status).toBe(200);
    await page.getByLabel('New password for uma').fill('uma has a fresh one');
    await page.getByRole('button', { name: 'Set password of uma' }).click();
    await status('Password of uma changed; their other sessions ended.');
    expect((await uma.get('/api/v1/notifications')).status).toBe(401);
    await signInUma('uma has a fresh one');
  });

  test('end sessions signs the user out', async () => {
    expect((await uma.get('/api/v1/notifications')).status).toBe(200);
    await page.getByRole('button', { name: 'End sessions of uma' }).click();
    await status('Sessions of uma ended.');
    expect((await uma.get('/api/v1/notifications')).status).toBe(401);
  });
});
