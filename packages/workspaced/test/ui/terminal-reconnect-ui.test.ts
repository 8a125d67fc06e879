/**
 * @module Tests: a terminal whose socket drops says so and comes back, in Chromium against the
 * `workspaced serve` bin. The test cuts the page's terminal socket (Playwright's WebSocket route
 * stands between page and daemon); the header's badge goes through "reconnecting in 1 s" to
 * "connected" (every text it showed is recorded in the page), a second socket is opened, and the
 * output from before the drop is on the screen once (the replayed scrollback is not doubled).
 */
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ownerPassword } from '../support/daemon.js';
import { type ProjectDaemon, startProjectDaemon, stopProjectDaemon } from '../support/project-daemon.js';
import { collectCspViolations, desktop, launchChromium, signIn } from './support/browser.js';

let started: ProjectDaemon;
let browser: Browser;

beforeAll(async () => {
  started = await startProjectDaemon('reconnect');
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stopProjectDaemon(started?.daemon);
});

/** Records every text the terminal's state badge shows, in the page (none is missed by polling). */
function recordStates(page: Page): Promise<void> {
  return page.evaluate(`(() => {
    const badge = document.querySelector('section.terminal [data-testid="terminal-state"]');
    window.shownStates = [badge.textContent];
    new MutationObserver(() => window.shownStates.push(badge.textContent)).observe(badge, {
      subtree: true, childList: true, characterData: true,
    });
  })()`);
}

test('a dropped terminal socket shows the countdown, reconnects and shows the output once', async () => {
  const { owner, projectId, daemon } = started;
  const created = await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' });
  expect(created.status).toBe(201);
  const page = await browser.newPage(desktop);
  page.setDefaultTimeout(15_000);
  const csp = collectCspViolations(page);
  const sockets: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/api\/v1\/terminals\/\d+\/ws$/, (socket) => {
    sockets.push(socket);
    socket.connectToServer();
  });
  await signIn(page, `${daemon.url}/projects/${projectId}/terminals`, 'owner', ownerPassword);
  const terminal = page.locator('section.terminal');
  const state = terminal.getByTestId('terminal-state');
  await state.getByText('connected').waitFor();
  expect(
    (await owner.post(`/terminals/${created.body.id}/input`, { data: 'echo before-$((20+22))\n' })).status,
  ).toBe(204);
  const rows = terminal.locator('.xterm-rows');
  await expect.poll(() => rows.textContent()).toContain('before-42');

  await recordStates(page);
  await sockets[0]?.close({ code: 1011, reason: 'dropped by the test' });
  await expect.poll(() => sockets.length).toBe(2);
  await state.getByText('connected').waitFor();
  const shown = await page.evaluate<string[]>('window.shownStates');
  expect(shown[0]).toBe('connected');
  expect(shown).toContain('reconnecting in 1 s');
  expect(shown.at(-1)).toBe('connected');
  // The scrollback replayed after the reset: the command and its output once each.
  await expect.poll(() => rows.textContent()).toContain('before-42');
  expect((await rows.textContent())?.match(/before-42/g)).toHaveLength(1);
  expect(csp).toEqual([]);
  await page.close();
});
