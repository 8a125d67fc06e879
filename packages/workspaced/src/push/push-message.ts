/**
 * @module What a push says: `{title, body, url, tag}`, the JSON the service worker (`ui/public/
 * sw.js`) shows. `url` is the UI screen of the item, a path on the daemon's own origin (the worker
 * opens nothing else); `tag` lets a newer push about the same item replace the older one on the
 * device (and is the RFC 8030 `Topic`, so a push service holding an undelivered message replaces
 * it too).
 */
import type { NotificationSummary } from '../notifications/event-summary.js';

export interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag: string;
}

const titles: Record<string, string> = {
  'agent.blocked': 'Agent needs input',
  'agent.failed': 'Agent failed',
  'task.blocked': 'Task needs input',
  'task.failed': 'Task failed',
  'workflow.approval': 'Approval waiting',
  'workflow.failed': 'Workflow failed',
};

/** The screen showing a resource (`agent:terminal:7`, `workflow-run:3`, `task:9`) of a project. */
function itemUrl(resource: string | null, projectId: number | null): string {
  if (resource?.startsWith('workflow-run:')) return '/workflows';
  if (projectId === null) return '/attention';
  if (resource?.startsWith('agent:terminal:')) return `/projects/${projectId}/terminals`;
  if (resource?.startsWith('task:')) return `/projects/${projectId}/tasks`;
  return `/projects/${projectId}`;
}

/**
 * `kind` and `id` come from the attention item an `attention.created` event carries; `seq` is
 * the event's sequence number (absent for a test notification).
 */
export function pushMessage(
  summary: NotificationSummary,
  about: { kind?: string; id?: number; seq?: number },
): PushMessage {
  const title = (about.kind && titles[about.kind]) ?? 'workspaced';
  const tag =
    about.id !== undefined
      ? `attention-${about.id}`
      : about.seq !== undefined
        ? `event-${about.seq}`
        : summary.event.replace(/[^A-Za-z0-9_-]/g, '-');
  return {
    title,
    body: summary.summary,
    url: itemUrl(summary.resource, summary.project_id),
    tag: tag.slice(0, 32),
  };
}
