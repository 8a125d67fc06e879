/**
 * Browser notifications, on every screen of a signed-in user (the shell renders this in the top
 * bar): one event socket on the user's own stream (`user:<id>`, where browser-channel notification
 * rules deliver) and on every project they can see (new attention items, `attention.created`).
 * With the browser's permission each becomes one `Notification`; an attention item that a
 * browser rule also delivers is shown once. The screens list what arrives but never notify.
 * Offers "Enable browser notifications" while the browser has not been asked yet.
 */
import { Button } from '@suite/web-ui/kit';
import { BellPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { api } from '../api.js';
import { type EventFrame, useEventStream } from '../event-stream.js';
import type { Project } from '../types.js';

/**
 * The event a notification is about: a browser rule's delivery names the sequence number of the
 * event it reports (`data.seq`; none for a test), so a new attention item that reaches the page
 * twice, as `attention.created` and through a browser rule, is shown once.
 */
function subject(frame: EventFrame): string | undefined {
  if (frame.type === 'notification')
    return typeof frame.data.seq === 'number' ? `event ${frame.data.seq}` : `notification ${frame.seq}`;
  if (frame.type === 'attention.created') return `event ${frame.seq}`;
  return undefined;
}

function permissionNow(): NotificationPermission {
  return typeof Notification === 'undefined' ? 'denied' : Notification.permission;
}

export function BrowserNotifications({ userId, path }: { userId: string; path: string }) {
  const [permission, setPermission] = useState(permissionNow);
  const [projectIds, setProjectIds] = useState<number[]>([]);
  const shown = useRef(new Set<string>());

  // Projects come and go: the list is read again when the user moves to another screen.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `path` is the trigger, not an input
  useEffect(() => {
    let current = true;
    api<{ projects: Project[] }>('GET', '/projects').then(
      ({ projects }) => {
        if (!current) return;
        const ids = projects.map((project) => project.id).sort((a, b) => a - b);
        setProjectIds((before) => (before.join(',') === ids.join(',') ? before : ids));
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [path]);

  useEventStream([`user:${userId}`, ...projectIds.map((id) => `project:${id}`)], (frame) => {
    const about = subject(frame);
    if (about === undefined || shown.current.has(about)) return;
    shown.current.add(about);
    if (permissionNow() !== 'granted') return;
    const summary = typeof frame.data.summary === 'string' ? frame.data.summary : frame.type;
    const title = frame.type === 'attention.created' ? 'workspaced needs you' : 'workspaced';
    // The tag of a Web Push about the same item (src/push/push-message.ts): a device with push
    // turned on and this page open shows the item once, the later one replacing the earlier.
    const tag =
      frame.type === 'attention.created' && typeof frame.data.id === 'number'
        ? `attention-${frame.data.id}`
        : undefined;
    new Notification(title, { body: summary, tag });
  });

  if (permission !== 'default') return null;
  // On a phone only the bell shows (the words stay the button's name): the top bar keeps one row.
  return (
    <Button
      icon={<BellPlus size={16} />}
      onClick={async () => setPermission(await Notification.requestPermission())}
    >
      <span className="header-label">Enable browser notifications</span>
    </Button>
  );
}
