/**
 * @module Tests: Web Push in the embedded UI, in Chromium against the `workspaced serve` bin.
 * What is covered: `/sw.js` is served same-origin as JavaScript under the UI's CSP and registers
 * at scope `/` with no CSP violation; the "Notify this device" toggle on the notification
 * settings screen asks for the permission, registers the worker, subscribes with the daemon's
 * VAPID public key and posts the subscription (and off again removes it); the worker's `push`
 * handler shows the notification (title, body, tag, the item's URL, an Open action) and its
 * `notificationclick` handler opens the item's URL, focuses a tab already on it, and opens
 * nothing outside the origin.
 *
 * What is not: headless Chromium reaches no real push service, so `PushManager.subscribe` is
 * replaced in the page by one that returns a subscription made in the test (the key it is called
 * with is recorded and checked), and the handlers run on events dispatched inside the worker
 * (`worker.evaluate`), not on a push the browser received; `clients.openWindow` and
 * `WindowClient.focus` are recorded there, because the browser only lets a click the user made
 * open or focus a window. Delivery, encryption and VAPID are covered by test/push.test.ts.
 */
import { createECDH, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page, Worker } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  type Client,
  ownerPassword,
  type RunningDaemon,
  setupOwner,
  startDaemon,
} from '../support/daemon.js';
import { stopProjectDaemon } from '../support/project-daemon.js';
import { collectCspViolations, desktop, launchChromium, signIn } from './support/browser.js';

const device = createECDH('prime256v1');
device.generateKeys();
const subscription = {
  endpoint: 'https://push.example.test/send/device-1',
  expirationTime: null,
  keys: { p256dh: device.getPublicKey().toString('base64url'), auth: randomBytes(16).toString('base64url') },
};

/** Runs in the page before its scripts: a PushManager that needs no push service. */
const fakePushManager = `(() => {
  const json = ${JSON.stringify(subscription)};
  let current = null;
  window.__applicationServerKeys = [];
  PushManager.prototype.subscribe = async function (options) {
    const bytes = new Uint8Array(options.applicationServerKey);
    window.__applicationServerKeys.push(btoa(String.fromCharCode(...bytes)));
    current = { toJSON: () => json, unsubscribe: async () => { current = null; return true; } };
    return current;
  };
  PushManager.prototype.getSubscription = async function () { return current; };
})()`;

let daemon: RunningDaemon;
let owner: Client;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let cspViolations: string[];
let worker: Worker;

beforeAll(async () => {
  daemon = await startDaemon();
  owner = await setupOwner(daemon);
  browser = await launchChromium();
  context = await browser.newContext(desktop);
  await context.grantPermissions(['notifications'], { origin: daemon.url });
  await context.addInitScript(fakePushManager);
  page = await context.newPage();
  cspViolations = collectCspViolations(page);
});

afterAll(async () => {
  await browser?.close();
  await stopProjectDaemon(daemon);
});

test('/sw.js is served same-origin as JavaScript under the CSP', async () => {
  const response = await fetch(`${daemon.url}/sw.js`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(response.headers.get('content-security-policy')).toContain("script-src 'self'");
  expect(response.headers.get('cache-control')).toBe('no-cache');
  expect(await response.text()).toContain("addEventListener('push'");
});

test('"Notify this device" registers the worker, subscribes with the VAPID key and posts the subscription', async () => {
  await signIn(page, `${daemon.url}/admin`, 'owner', ownerPassword);
  const toggle = page.getByRole('checkbox', { name: 'Notify this device' });
  await expect.poll(() => toggle.isEnabled()).toBe(true);
  expect(await toggle.isChecked()).toBe(false);
  const registered = context.waitForEvent('serviceworker');
  await toggle.click();
  worker = await registered;
  expect(worker.url()).toBe(`${daemon.url}/sw.js`);
  await expect.poll(() => toggle.isChecked()).toBe(true);

  const { vapid_public_key, subscriptions } = (await owner.get('/push/subscriptions')).body;
  expect(subscriptions).toEqual([expect.objectContaining({ push_service: 'https://push.example.test' })]);
  expect(await page.evaluate<string[]>('window.__applicationServerKeys')).toEqual([
    Buffer.from(vapid_public_key, 'base64url').toString('base64'),
  ]);
  expect(await page.evaluate<string>("navigator.serviceWorker.controller?.scriptURL ?? ''")).toBe(
    `${daemon.url}/sw.js`,
  );
  expect(cspViolations).toEqual([]);
});

test("the worker's push handler shows the item with an Open action", async () => {
  // A push dispatched by a script is untrusted: the browser does not keep the worker alive for
  // its waitUntil, and once in a few runs the notification never appeared. The promise the
  // handler hands to waitUntil is awaited here instead, as the browser does for a real push.
  const shown = await worker.evaluate(`(async () => {
    let waited = null;
    ExtendableEvent.prototype.waitUntil = function (promise) { waited = promise; };
    self.dispatchEvent(new PushEvent('push', { data: JSON.stringify({
      title: 'Agent needs input', body: 'codex in terminal 3 needs approval',
      url: '/projects/1/terminals', tag: 'attention-7' }) }));
    let outcome = 'waitUntil not called';
    try { await waited; outcome = 'shown'; } catch (e) { outcome = 'refused: ' + e; }
    for (let i = 0; i < 200; i++) {
      const notifications = await self.registration.getNotifications();
      if (notifications.length > 0)
        return notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data,
          actions: n.actions.map((a) => a.action) }));
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return [{ outcome }];
  })()`);
  expect(shown).toEqual([
    {
      title: 'Agent needs input',
      body: 'codex in terminal 3 needs approval',
      tag: 'attention-7',
      data: { url: '/projects/1/terminals' },
      actions: ['open'],
    },
  ]);
});

/** Dispatches a click on a notification carrying `url`; answers what was opened and focused. */
function click(url: string) {
  return worker.evaluate<{ opened: string[]; focused: string[] }>(`(async () => {
    const opened = [];
    const focused = [];
    self.clients.openWindow = async (href) => { opened.push(href); return null; };
    WindowClient.prototype.focus = async function () { focused.push(this.url); return this; };
    await self.registration.showNotification('x', { tag: 'click', data: { url: ${JSON.stringify(url)} } });
    const notification = (await self.registration.getNotifications({ tag: 'click' }))[0];
    self.dispatchEvent(new NotificationEvent('notificationclick', { notification, action: 'open' }));
    for (let i = 0; i < 200 && opened.length + focused.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    return { opened, focused };
  })()`);
}

test("the worker's click handler opens the item, focuses a tab already on it, never another origin", async () => {
  expect(await click('/projects/1/terminals')).toEqual({
    opened: [`${daemon.url}/projects/1/terminals`],
    focused: [],
  });
  // The page is on /admin: a click for that screen focuses it instead of opening another tab.
  expect(await click('/admin')).toEqual({ opened: [], focused: [`${daemon.url}/admin`] });
  expect(await click('https://elsewhere.example/phish')).toEqual({ opened: [`${daemon.url}/`], focused: [] });
});

test('turning it off removes the subscription from the daemon', async () => {
  const toggle = page.getByRole('checkbox', { name: 'Notify this device' });
  await toggle.click();
  await expect.poll(() => toggle.isChecked()).toBe(false);
  expect((await owner.get('/push/subscriptions')).body.subscriptions).toEqual([]);
  expect(cspViolations).toEqual([]);
});
