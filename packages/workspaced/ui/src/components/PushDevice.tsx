/**
 * "Notify this device": Web Push for the browser in hand, so an agent that needs input or an
 * approval that waits reaches it with no tab open. Turning it on registers the service worker
 * (`/sw.js`), asks for the notification permission, subscribes with the daemon's VAPID public
 * key and sends the subscription to `POST /push/subscriptions`; turning it off removes it from
 * the daemon (the same endpoint posted again names its id) and unsubscribes.
 */
import { useEffect, useState } from 'react';
import { api } from '../api.js';

const supported = () => 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

const messageOf = (failure: unknown) => (failure instanceof Error ? failure.message : String(failure));

async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

async function subscribeThisDevice(): Promise<void> {
  if ((await Notification.requestPermission()) !== 'granted')
    throw new Error('the browser does not allow notifications for this site');
  await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const { vapid_public_key } = await api<{ vapid_public_key: string }>('GET', '/push/subscriptions');
  const key = Uint8Array.from(atob(vapid_public_key.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
    c.charCodeAt(0),
  );
  const subscription = await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  await api('POST', '/push/subscriptions', subscription.toJSON());
}

async function unsubscribeThisDevice(subscription: PushSubscription): Promise<void> {
  const { id } = await api<{ id: number }>('POST', '/push/subscriptions', subscription.toJSON());
  await api('DELETE', `/push/subscriptions/${id}`);
  await subscription.unsubscribe();
}

export function PushDevice() {
  const [on, setOn] = useState<boolean>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!supported()) return;
    currentSubscription().then(
      (subscription) => setOn(subscription !== null),
      () => setOn(false),
    );
  }, []);

  if (!supported()) return <p className="muted">This browser cannot receive push notifications.</p>;

  const toggle = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const subscription = await currentSubscription();
      if (subscription) await unsubscribeThisDevice(subscription);
      else await subscribeThisDevice();
      setOn(subscription === null);
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="row">
      <label>
        <input type="checkbox" checked={on === true} disabled={busy || on === undefined} onChange={toggle} />
        Notify this device
      </label>
      <span className="muted">
        {on
          ? 'Pushes reach this browser with no tab open.'
          : 'Agents that need input and approvals that wait.'}
      </span>
      {error && (
        <span role="alert" className="error">
          {error}
        </span>
      )}
    </div>
  );
}
