/**
 * workspaced's service worker, served as `/sw.js` (scope `/`) under the UI's CSP: it shows the
 * Web Push messages the daemon sends (`{title, body, url, tag}`, src/push/push-message.ts) while
 * no tab is open, and a click (on the notification or its Open action) focuses a tab already on
 * the item's screen or opens one. It opens pages of this origin only and caches nothing.
 */
/// <reference lib="webworker" />

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** The message a push carries; a push without a readable one still says who sent it. */
function readMessage(data) {
  let message = {};
  try {
    message = data ? data.json() : {};
  } catch {
    message = { body: data ? data.text() : '' };
  }
  const text = (value, fallback) =>
    typeof value === 'string' && value !== '' ? value.slice(0, 500) : fallback;
  return {
    title: text(message.title, 'workspaced'),
    body: text(message.body, ''),
    url: text(message.url, '/'),
    tag: text(message.tag, undefined),
  };
}

self.addEventListener('push', (event) => {
  const message = readMessage(event.data);
  event.waitUntil(
    self.registration.showNotification(message.title, {
      body: message.body,
      tag: message.tag,
      data: { url: message.url },
      actions: [{ action: 'open', title: 'Open' }],
    }),
  );
});

/** The item's page as an absolute URL of this origin, or the UI's start page for anything else. */
function itemHref(url) {
  const target = new URL(typeof url === 'string' ? url : '/', self.location.origin);
  return target.origin === self.location.origin ? target.href : new URL('/', self.location.origin).href;
}

async function openItem(href) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => client.url === href);
  if (open) return open.focus();
  return self.clients.openWindow(href);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openItem(itemHref(event.notification.data?.url)));
});
