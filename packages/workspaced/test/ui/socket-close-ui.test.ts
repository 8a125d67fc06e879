/**
 * @module Tests: what the embedded UI shows, in Chromium against the bin, when the daemon closes
 * a terminal socket for good (README "Close codes"): a developer whose account
 * is disabled sees "session ended" and the page stops reconnecting (each try would be refused).
 * Reconnecting after a dropped connection is covered by embedded-ui.test.ts (a reload).
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Client, type RunningDaemon, userClient } from '../support/daemon.js';
import { startProjectDaemon, stopProjectDaemon } from '../support/project-daemon.js';
import { desktop, launchChromium, signIn } from './support/browser.js';

describe('the UI after a final socket close', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let owner: Client;
  let projectId: number;

  beforeAll(async () => {
    ({ daemon, owner, projectId } = await startProjectDaemon('closing'));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await stopProjectDaemon(daemon);
  });

  /** A developer member signed in through the form, their own terminal connected on screen. */
  async function developerAtTerminal(
    username: string,
  ): Promise<{ page: Page; id: string; sockets: () => number }> {
    const developer = await userClient(daemon, owner, username, 'developer');
    await owner.post(`/projects/${projectId}/members`, { user_id: developer.id, role: 'developer' });
    const page = await browser.newPage(desktop);
    let opened = 0;
    page.on('websocket', (socket) => {
      if (socket.url().includes('/terminals/')) opened++;
    });
    await signIn(page, daemon.url, username, `${username} password 123`);
    await page.getByRole('link', { name: 'closing' }).click();
    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('button', { name: 'New terminal' }).click();
    await page.locator('section.terminal').getByTestId('terminal-state').getByText('connected').waitFor();
    return { page, id: developer.id, sockets: () => opened };
  }

  test('a disabled account: the terminal says the session ended and never reconnects', async () => {
    const { page, id, sockets } = await developerAtTerminal('closing-dev');
    expect(sockets()).toBe(1);
    expect((await owner.patch(`/users/${id}`, { disabled: true })).status).toBe(200);
    const state = page.locator('section.terminal').getByTestId('terminal-state');
    await state.getByText('session ended (account disabled): sign in again').waitFor();
    // The backoff's first retry would come after 0.5 s; a page that retried opened a second socket.
    await page.waitForTimeout(1500);
    expect(sockets()).toBe(1);
    await page.close();
  });
});
