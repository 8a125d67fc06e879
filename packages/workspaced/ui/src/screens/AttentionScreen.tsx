/**
 * The attention center: open items first, each with a Resolve button. New items arrive on the
 * event socket (`/api/v1/ws`, critical `attention.*` events of every visible project); with the
 * user's permission they also become browser notifications (spec section 6, browser channel).
 */
import { useEffect, useState } from 'react';
import { api, messageOf } from '../api.js';
import type { AttentionItem, Project } from '../types.js';
import { useLoad } from '../use-load.js';

export function AttentionScreen() {
  const items = useLoad(() => api<{ items: AttentionItem[] }>('GET', '/attention'), []);
  const [message, setMessage] = useState<string>();
  const [permission, setPermission] = useState(
    typeof Notification === 'undefined' ? 'denied' : Notification.permission,
  );
  const { reload } = items;

  useEffect(() => {
    let socket: WebSocket | undefined;
    let closed = false;
    api<{ projects: Project[] }>('GET', '/projects').then(
      ({ projects }) => {
        if (closed) return;
        const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
        socket = new WebSocket(`${scheme}//${window.location.host}/api/v1/ws`);
        socket.onopen = () => {
          socket?.send(JSON.stringify({ op: 'hello' }));
          for (const project of projects)
            socket?.send(JSON.stringify({ op: 'sub', stream: `project:${project.id}` }));
        };
        socket.onmessage = (event) => {
          const frame = JSON.parse(String(event.data)) as { type?: string; data?: AttentionItem };
          if (!frame.type?.startsWith('attention.')) return;
          reload();
          if (frame.type === 'attention.created' && frame.data && Notification.permission === 'granted')
            new Notification('workspaced needs you', { body: frame.data.summary });
        };
      },
      () => undefined,
    );
    return () => {
      closed = true;
      socket?.close();
    };
  }, [reload]);

  const resolve = async (id: number) => {
    try {
      await api('POST', `/attention/${id}/resolve`);
      reload();
    } catch (failure) {
      setMessage(messageOf(failure));
    }
  };

  return (
    <section>
      <h1>Attention</h1>
      {permission === 'default' && (
        <button type="button" onClick={async () => setPermission(await Notification.requestPermission())}>
          Enable browser notifications
        </button>
      )}
      {(message ?? items.error) && <p className="error">{message ?? items.error}</p>}
      <ul className="list" aria-label="Attention items">
        {items.data?.items.map((item) => (
          <li key={item.id} className={item.resolved_at ? 'muted' : undefined}>
            <span className="badge">{item.kind}</span> {item.summary}
            {item.resolved_at ? (
              ' (resolved)'
            ) : (
              <button type="button" onClick={() => resolve(item.id)}>
                Resolve
              </button>
            )}
          </li>
        ))}
        {items.data?.items.length === 0 && <li className="muted">Nothing needs you.</li>}
      </ul>
    </section>
  );
}
