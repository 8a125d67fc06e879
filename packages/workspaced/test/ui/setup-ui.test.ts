/**
 * @module Tests: the setup screen in Chromium against a daemon that requires the setup token
 * (started without `--setup-open`). The printed setup URL fills the token in from its fragment,
 * which leaves the address bar (and never reaches the daemon); without it the screen asks for the
 * token, and a wrong one is refused with the daemon's message.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  Client,
  ownerPassword,
  type RunningDaemon,
  readSetupToken,
  removeDataDir,
  startDaemon,
} from '../support/daemon.js';
import { collectCspViolations, desktop, launchChromium } from './support/browser.js';

describe('setup screen with a setup token', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[];

  beforeAll(async () => {
    daemon = await startDaemon({ setupOpen: false });
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    cspViolations = collectCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
  });

  test('without the token in the URL the screen asks for it, and a wrong one is refused', async () => {
    await page.goto(daemon.url);
    await page.getByRole('heading', { name: 'Create the first owner' }).waitFor();
    await page.getByLabel('Setup token').fill('not the token');
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill(ownerPassword);
    await page.getByRole('button', { name: 'Create owner' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('setup_token');
    expect((await new Client(daemon.url).get('/setup')).body.setup_pending).toBe(true);
  });

  test('the printed setup URL fills the token in, leaves the address bar, and creates the owner', async () => {
    const token = (await readSetupToken(daemon))!;
    const printed = /(http:\/\/\S+\/setup#token=\S+)/.exec(daemon.stdout())?.[1];
    expect(printed).toBe(`${daemon.url}/setup#token=${token}`);
    await page.goto(printed!);
    await page.getByRole('heading', { name: 'Create the first owner' }).waitFor();
    expect(page.url()).toBe(`${daemon.url}/`);
    expect(await page.getByLabel('Setup token').inputValue()).toBe(token);
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Display name').fill('The Owner');
    await page.getByLabel('Password').fill(ownerPassword);
    await page.getByRole('button', { name: 'Create owner' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    const owner = new Client(daemon.url);
    expect((await owner.post('/login', { username: 'owner', password: ownerPassword })).status).toBe(200);
    expect((await owner.get('/me')).body.user.role).toBe('owner');
    expect(cspViolations).toEqual([]);
  });
});
