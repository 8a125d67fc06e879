/**
 * The attention center: open items first, each with a Resolve button. The list follows the event
 * socket (`attention.*` events of every visible project); the shell's notifier turns new items
 * into browser notifications on any screen (spec section 6, browser channel).
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { useState } from 'react';
import { api } from '../api.js';
import { useEventStream } from '../event-stream.js';
import type { AttentionItem, Project } from '../types.js';

export function AttentionScreen() {
  const items = useLoad(() => api<{ items: AttentionItem[] }>('GET', '/attention'), []);
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [message, setMessage] = useState<string>();
  const { reload } = items;

  useEventStream(
    projects.data?.projects.map((project) => `project:${project.id}`) ?? [],
    (frame) => frame.type.startsWith('attention.') && reload(),
    reload,
  );

  const resolve = async (id: number) => {
    try {
      await api('POST', `/attention/${id}/resolve`);
      reload();
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  return (
    <section>
      <h1>Attention</h1>
      {(message ?? items.error) && <p className="error">{message ?? items.error}</p>}
      {!items.data && !items.error && <Skeleton lines={3} label="Loading the attention items" />}
      <ul className="list" aria-label="Attention items">
        {items.data?.items.map((item) => (
          <li key={item.id} className={item.resolved_at ? 'muted' : undefined}>
            <Badge tone={item.resolved_at ? 'neutral' : 'warn'}>{item.kind}</Badge> {item.summary}
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
