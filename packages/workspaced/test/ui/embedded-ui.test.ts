/**
 * @module Tests: the embedded UI in Chromium against the `workspaced serve` bin. How the daemon
 * serves it (types, CSP, caching, SPA fallback), then what a user does: create the first owner,
 * add and open a project, edit a file, run a command in a terminal and see its output (also
 * after a reload, from the scrollback), move a task (select and button; the 409 message), start
 * a workflow and approve its step, watch and answer a running agent step's terminal, sign in on
 * a phone without horizontal scroll. Names with markup render as text. Every step is checked
 * through the API too.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { Client, ownerPassword, type RunningDaemon, removeDataDir, startDaemon } from '../support/daemon.js';
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

describe('embedded UI', () => {
  let daemon: RunningDaemon;
  let browser: Browser;
  let page: Page;
  let folder: string;
  const api = () => new Client(daemon.url);
  let owner: Client;
  let cspViolations: string[];

  beforeAll(async () => {
    folder = await mkdtemp(path.join(os.tmpdir(), 'workspaced-ui-project-'));
    await writeFile(path.join(folder, 'notes.txt'), 'first line\n');
    await writeFile(path.join(folder, `${hostile}.txt`), 'x');
    daemon = await startDaemon();
    browser = await launchChromium();
    page = await browser.newPage(desktop);
    cspViolations = collectCspViolations(page);
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
    await rm(folder, { recursive: true, force: true });
  });

  test('the daemon serves the page with a strict CSP, hashed assets cached for a year, screens falling back to index.html', async () => {
    const index = await fetch(`${daemon.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    // The page is written with a nonce of its own each time, so no cache may keep it.
    expect(index.headers.get('cache-control')).toBe('no-store');
    const csp = index.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    const html = await index.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const asset = await fetch(`${daemon.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const screen = await fetch(`${daemon.url}/projects/1/tasks`);
    expect(screen.status).toBe(200);
    const withoutNonce = (page: string) => page.replace(/ nonce="[^"]+"/, '');
    expect(withoutNonce(await screen.text())).toBe(withoutNonce(html));
    // A missing asset stays 404; an API path never gets the page (here: 401 JSON, not signed in).
    expect((await fetch(`${daemon.url}/assets/missing-123.js`)).status).toBe(404);
    const apiMiss = await fetch(`${daemon.url}/api/v1/no-such-route`);
    expect(apiMiss.status).toBe(401);
    expect(((await apiMiss.json()) as { error: { code: string } }).error.code).toBe('AUTH_REQUIRED');
    expect(apiMiss.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    // No file outside the build is reachable.
    expect((await fetch(`${daemon.url}/..%2f..%2fpackage.json`)).status).toBe(404);
  });

  test('a new daemon asks for the first owner, and the owner is signed in', async () => {
    await page.goto(daemon.url);
    await page.getByRole('heading', { name: 'Create the first owner' }).waitFor();
    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Display name').fill('The Owner');
    await page.getByLabel('Password').fill(ownerPassword);
    await page.getByRole('button', { name: 'Create owner' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    owner = api();
    expect((await owner.post('/login', { username: 'owner', password: ownerPassword })).status).toBe(200);
    expect((await owner.get('/me')).body.user.role).toBe('owner');
  });

  test('a project is added, opened, and a file edited; a hostile file name is text', async () => {
    await page.getByLabel('Name').fill('demo');
    await page.getByLabel('Folder (absolute path)').fill(folder);
    await page.getByRole('button', { name: 'Add project' }).click();
    await page.getByRole('link', { name: 'demo' }).click();
    await page.getByRole('heading', { name: 'demo' }).waitFor();
    const files = page.getByRole('list', { name: 'Files' });
    await files.getByRole('button', { name: `${hostile}.txt` }).waitFor();
    expect(await files.locator('img').count()).toBe(0);

    await files.getByRole('button', { name: 'notes.txt' }).click();
    // The code editor (CodeMirror) is a content-editable box named after the file, a line per row.
    const editor = page.getByLabel('notes.txt', { exact: true });
    await editor.getByText('first line').waitFor();
    expect(await editor.locator('.cm-line').allTextContents()).toEqual(['first line', '']);
    await editor.fill('first line\nsecond line\n');
    await page.getByRole('button', { name: 'Save' }).click();
    await dismissToast(page, 'Saved notes.txt');
    expect(await readFile(path.join(folder, 'notes.txt'), 'utf8')).toBe('first line\nsecond line\n');
  });

  test('a command typed in a terminal shows its output, and again after a reload', async () => {
    await page.getByRole('link', { name: 'Terminals' }).click();
    await page.getByRole('button', { name: 'New terminal' }).click();
    const terminal = page.locator('section.terminal');
    await terminal.getByTestId('terminal-state').getByText('connected').waitFor();
    await terminal.locator('.terminal-box').click();
    await page.keyboard.type('echo ui-$((6*7))-done\n');
    const rows = terminal.locator('.xterm-rows');
    await expect.poll(() => rows.textContent()).toContain('ui-42-done');

    await page.reload();
    await page.locator('section.terminal').getByTestId('terminal-state').getByText('connected').waitFor();
    await expect.poll(() => page.locator('.xterm-rows').textContent()).toContain('ui-42-done');
    const live = (await owner.get('/terminals')).body.terminals;
    expect(live).toHaveLength(1);
    expect(live[0].cols).toBeGreaterThan(80);
  });

  test('a task is moved with the select and button and by drag; a stale move shows the conflict; the board follows moves made elsewhere; a hostile title is text', async () => {
    // The board follows task.updated events, so it is only stale while an event is on its way:
    // the test holds the event socket's frames to the page to make that moment last.
    let holding = false;
    const held: Array<() => void> = [];
    await page.routeWebSocket('**/api/v1/ws', (socket) => {
      const server = socket.connectToServer();
      server.onMessage((frame) => (holding ? held.push(() => socket.send(frame)) : socket.send(frame)));
      socket.onMessage((frame) => server.send(frame));
    });
    await page.getByRole('link', { name: 'Tasks' }).click();
    await page.getByLabel('New task').fill(hostile);
    await page.getByRole('button', { name: 'Add task' }).click();
    const todo = page.getByRole('region', { name: 'To do' });
    await todo.getByRole('heading', { name: hostile }).waitFor();
    expect(await page.locator('.board img').count()).toBe(0);
    expect(await page.title()).toBe('workspaced');

    await page.getByLabel(`Move "${hostile}" to`).selectOption('review');
    await page.getByRole('button', { name: 'Move' }).click();
    await page.getByRole('region', { name: 'Review' }).getByRole('heading', { name: hostile }).waitFor();
    const [task] = (await owner.get('/projects/1/tasks')).body.tasks;
    expect(task.state).toBe('review');

    // Someone else moves it meanwhile, and the board has not heard yet: its version is stale.
    holding = true;
    expect(
      (await owner.post(`/tasks/${task.id}/move`, { state: 'running', version: task.version })).status,
    ).toBe(200);
    await page.getByLabel(`Move "${hostile}" to`).selectOption('done');
    await page.getByRole('button', { name: 'Move' }).click();
    await page
      .getByRole('alert')
      .getByText('was changed by someone else meanwhile; it is now in Running')
      .waitFor();
    await page.getByRole('region', { name: 'Running' }).getByRole('heading', { name: hostile }).waitFor();
    expect((await owner.get('/projects/1/tasks')).body.tasks[0].state).toBe('running');
    holding = false;
    for (const deliver of held.splice(0)) deliver();

    // A move made elsewhere reaches the board by its event, with no reload.
    const [running] = (await owner.get('/projects/1/tasks')).body.tasks;
    expect(
      (await owner.post(`/tasks/${running.id}/move`, { state: 'failed', version: running.version })).status,
    ).toBe(200);
    await page.getByRole('region', { name: 'Failed' }).getByRole('heading', { name: hostile }).waitFor();

    await page
      .getByRole('region', { name: 'Failed' })
      .getByRole('article')
      .dragTo(page.getByRole('region', { name: 'Done' }));
    await page.getByRole('region', { name: 'Done' }).getByRole('heading', { name: hostile }).waitFor();
    expect((await owner.get('/projects/1/tasks')).body.tasks[0].state).toBe('done');
  });

  test('a workflow started in the UI waits in the attention center and is approved with its button', async () => {
    const definition = {
      name: 'ship',
      steps: [
        { name: 'check', kind: 'agent', command: 'true' },
        { name: 'sign-off', kind: 'approval' },
      ],
    };
    expect((await owner.post('/workflows', definition)).status).toBe(201);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('form', { name: 'Start ship' }).getByRole('button', { name: 'Start' }).click();
    await page.getByTestId('run-status').getByText('waiting_approval').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Attention' }).click();
    await page.getByRole('list', { name: 'Attention items' }).getByText('workflow.approval').waitFor();

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Workflows' }).click();
    await page.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('run-status').getByText('completed').waitFor();
    const run = (await owner.get('/workflow-runs/latest')).body;
    expect(run.status).toBe('completed');
    expect(run.steps[1].status).toBe('completed');
  });

  test("a running agent step's terminal is watched and answered from the run, which then completes by its events", async () => {
    const definition = {
      name: 'ask',
      steps: [
        {
          name: 'question',
          kind: 'agent',
          command: `sh -c 'echo ready-$((6*7)); read answer; echo "got-$answer"'`,
        },
      ],
    };
    expect((await owner.post('/workflows', definition)).status).toBe(201);
    await page.reload();
    await page.getByRole('form', { name: 'Start ask' }).getByRole('button', { name: 'Start' }).click();
    const run = page.getByRole('region', { name: 'Latest run' });
    await run.getByTestId('run-status').getByText('running').waitFor();
    const terminal = run.locator('section.terminal');
    await terminal.getByTestId('terminal-state').getByText('connected').waitFor();
    await expect.poll(() => terminal.locator('.xterm-rows').textContent()).toContain('ready-42');
    // Watching never offers to close the step's terminal (that would fail the step).
    expect(await terminal.getByRole('button', { name: 'Close' }).count()).toBe(0);

    await terminal.locator('.terminal-box').click();
    await page.keyboard.type('yes\n');
    // No reload and no polling: the completed run arrives as a workflow.updated event.
    await run.getByTestId('run-status').getByText('completed').waitFor();
    const latest = (await owner.get('/workflow-runs/latest')).body;
    expect(latest.workflow).toBe('ask');
    expect(latest.status).toBe('completed');
    expect(latest.steps[0].output_tail).toContain('got-yes');
  });

  test('the page ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });

  test('on a phone (375 px) the owner signs in and the board and terminals do not scroll sideways', async () => {
    const phone = await browser.newPage(phoneSize);
    try {
      await signIn(phone, `${daemon.url}/projects/1/tasks`, 'owner', ownerPassword);
      await phone.getByRole('region', { name: 'Done' }).getByRole('heading', { name: hostile }).waitFor();
      await expectPhoneLayout(phone);
      await phone.getByRole('link', { name: 'Terminals' }).click();
      await phone.locator('section.terminal').getByTestId('terminal-state').getByText('connected').waitFor();
      await expectPhoneLayout(phone);
    } finally {
      await phone.close();
    }
  });
});
