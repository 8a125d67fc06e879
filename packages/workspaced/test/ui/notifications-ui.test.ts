/**
 * @module Tests: browser notifications of the embedded UI in Chromium against the
 * `workspaced serve` bin. With the permission granted, and the user on the Projects screen, a
 * browser rule's test and a new attention item (a stand-in agent asking for approval) each
 * become exactly one `new Notification(...)` with the right body, although the item reaches the
 * page twice (its `attention.created` and the rule's delivery); the Attention screen lists it and
 * adds none. When the event socket drops, the page reconnects and resumes its stream from the
 * last event it saw, so a notification sent in the gap is shown, once. Without the permission the
 * top bar offers to enable them.
 */
import type { Browser, BrowserContext, Page, WebSocketRoute } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type Client,
  ownerPassword,
  type RunningDaemon,
  removeDataDir,
  setupOwner,
  startDaemon,
} from '../support/daemon.js';
import { writeFakeAgent } from '../support/fake-agent.js';
import { removeScratchDirs, scratchDir } from '../support/scratch.js';
import { collectCspViolations, desktop, launchChromium, signIn } from './support/browser.js';

interface Shown {
  title: string;
  body: string;
  /** Only when the page gave one. */
  tag?: string;
}

/** Runs in the page before its scripts: every Notification constructed is also recorded. */
const recordNotifications = `(() => {
  const Original = window.Notification;
  window.__shown = [];
  window.Notification = class extends Original {
    constructor(title, options) {
      super(title, options);
      window.__shown.push({ title, body: (options && options.body) || '', ...(options && options.tag ? { tag: options.tag } : {}) });
    }
  };
})()`;

describe('browser notifications on every screen', () => {
  let daemon: RunningDaemon;
  let owner: Client;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let projectId: number;
  let userId: string;
  let fakeAgent: string;
  let ruleId: number;
  let cspViolations: string[];
  /** The event socket frames the page received, parsed. */
  const frames: { op?: string; stream?: string; type?: string; data?: Record<string, unknown> }[] = [];

  const shown = () => page.evaluate<Shown[]>('window.__shown');
  const frame = (match: (f: (typeof frames)[number]) => boolean, what: string) =>
    expect.poll(() => frames.some(match), { message: what, timeout: 15_000 }).toBe(true);
  /** A rule test sent now arrives after every frame before it: then those have been handled. */
  let tests = 0;
  const barrier = async () => {
    const before = (await shown()).length;
    expect((await owner.post('/notifications/test', { rule_id: ruleId })).status).toBe(200);
    tests += 1;
    await expect.poll(async () => (await shown()).length).toBe(before + 1);
  };

  beforeAll(async () => {
    daemon = await startDaemon();
    owner = await setupOwner(daemon);
    userId = (await owner.get('/me')).body.user.id;
    const folder = await scratchDir('notifications-ui');
    fakeAgent = await writeFakeAgent(folder, 'codex', 'Run npm test? Allow? [y/n]');
    projectId = (await owner.post('/projects', { name: 'alerts', path: folder })).body.id;
    browser = await launchChromium();
    context = await browser.newContext(desktop);
    await context.grantPermissions(['notifications'], { origin: daemon.url });
    await context.addInitScript(recordNotifications);
    page = await context.newPage();
    cspViolations = collectCspViolations(page);
    page.on('websocket', (socket) => {
      if (!socket.url().endsWith('/api/v1/ws')) return;
      socket.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string') frames.push(JSON.parse(payload));
      });
    });
  });
  afterAll(async () => {
    await browser?.close();
    await daemon?.stop();
    if (daemon) await removeDataDir(daemon);
    await removeScratchDirs();
  });

  test("a browser rule's test becomes one notification while the user is on the Projects screen", async () => {
    const rule = await owner.post('/notifications/rules', { event: 'attention.*', channel: 'browser' });
    expect(rule.status).toBe(201);
    ruleId = rule.body.id;
    await signIn(page, daemon.url, 'owner', ownerPassword);
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    // Permission granted: nothing to enable.
    expect(await page.getByRole('button', { name: 'Enable browser notifications' }).count()).toBe(0);
    await frame((f) => f.op === 'subscribed' && f.stream === `user:${userId}`, 'user stream subscribed');
    await frame((f) => f.op === 'subscribed' && f.stream === `project:${projectId}`, 'project subscribed');

    const answer = await owner.post('/notifications/test', { rule_id: ruleId });
    expect(answer.body.results).toMatchObject([{ rule_id: ruleId, channel: 'browser' }]);
    tests += 1;
    await expect.poll(shown).toEqual([{ title: 'workspaced', body: 'test notification requested by owner' }]);
  });

  test('a new attention item becomes one notification, not two, though a browser rule also delivers it', async () => {
    const terminal = (await owner.post('/terminals', { project_id: projectId, shell: '/bin/sh' })).body.id;
    await owner.post(`/terminals/${terminal}/input`, { data: `${fakeAgent}\r` });
    await expect
      .poll(async () => (await owner.get('/attention')).body.items.length, { timeout: 15_000 })
      .toBe(1);
    const item = (await owner.get('/attention')).body.items[0];
    expect(item.summary).not.toBe('');
    // Both ways in have reached the page: the project event and the rule's delivery.
    await frame((f) => f.type === 'attention.created' && f.data?.id === item.id, 'attention.created');
    await frame(
      (f) => f.type === 'notification' && f.data?.event === 'attention.created',
      "the rule's delivery",
    );
    await barrier();
    expect((await shown()).filter((n) => n.body === item.summary)).toEqual([
      // The tag a Web Push about the item carries: a device with push on shows it once.
      { title: 'workspaced needs you', body: item.summary, tag: `attention-${item.id}` },
    ]);
    expect(new URL(page.url()).pathname).toBe('/');

    // The Attention screen lists it and notifies nothing more.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Attention' }).click();
    await page.getByRole('list', { name: 'Attention items' }).getByText(item.summary).waitFor();
    await barrier();
    const all = await shown();
    expect(all.filter((n) => n.body === item.summary)).toHaveLength(1);
    expect(all.filter((n) => n.body === 'test notification requested by owner')).toHaveLength(tests);
  }, 30_000);

  test('after the event socket drops the page reconnects, and a notification sent meanwhile is shown once', async () => {
    const sockets: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
    /** `user:<id>` subscriptions the daemon confirmed, over every socket of the page. */
    let subscribed = 0;
    const second = await context.newPage();
    await second.routeWebSocket(/\/api\/v1\/ws$/, (socket) => {
      const server = socket.connectToServer();
      server.onMessage((message) => {
        if (
          typeof message === 'string' &&
          message.includes('"subscribed"') &&
          message.includes(`user:${userId}`)
        )
          subscribed += 1;
        socket.send(message);
      });
      sockets.push({ page: socket, server });
    });
    const seen = () => second.evaluate<Shown[]>('window.__shown');
    const body = 'test notification requested by owner';
    try {
      // The same browser context: already signed in.
      await second.goto(daemon.url);
      await second.getByRole('button', { name: 'Sign out' }).waitFor();
      // One notification first, so the page has a position on its stream to resume from.
      await expect.poll(() => subscribed).toBe(1);
      expect((await owner.post('/notifications/test', { rule_id: ruleId })).status).toBe(200);
      await expect.poll(seen).toEqual([{ title: 'workspaced', body }]);
      for (const socket of sockets) {
        await socket.page.close({ code: 4000, reason: 'dropped by the test' });
        await socket.server.close();
      }
      expect((await owner.post('/notifications/test', { rule_id: ruleId })).status).toBe(200);
      await expect.poll(() => subscribed, { timeout: 15_000 }).toBe(2);
      await expect.poll(seen, { timeout: 15_000 }).toEqual([
        { title: 'workspaced', body },
        { title: 'workspaced', body },
      ]);
    } finally {
      await second.close();
    }
  });

  test('without the permission the top bar offers to enable browser notifications', async () => {
    const other = await browser.newContext(desktop);
    try {
      const plain = await other.newPage();
      await signIn(plain, daemon.url, 'owner', ownerPassword);
      // Not granted, not refused: the browser has not asked yet.
      expect(await plain.evaluate<string>('Notification.permission')).toBe('default');
      await plain.getByRole('banner').getByRole('button', { name: 'Enable browser notifications' }).waitFor();
    } finally {
      await other.close();
    }
  });

  test('the page ran without a CSP violation', () => {
    expect(cspViolations).toEqual([]);
  });
});
