/**
 * @module What a notification says about an event: a priority (1 someone must act, 2 something
 * failed, 3 for information) and a one-line summary, taken from the attention item when the
 * event carries one.
 */
import type { RealtimeEvent } from '../realtime/event-bus.js';
import { eventProjectId } from '../realtime/event-visibility.js';

export interface NotificationSummary {
  event: string;
  priority: 1 | 2 | 3;
  summary: string;
  resource: string | null;
  project_id: number | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value.slice(0, 500) : undefined);

export function summarize(event: RealtimeEvent): NotificationSummary {
  const data = event.data;
  const projectId = eventProjectId(event) ?? null;
  const given = data.priority;
  const priority =
    given === 1 || given === 2 ? given : event.critical && event.type.endsWith('failed') ? 2 : 3;
  let summary = text(data.summary);
  if (summary === undefined && event.type === 'workflow.updated')
    summary = `workflow ${text(data.workflow) ?? ''} is ${text(data.status) ?? 'updated'}`;
  return {
    event: event.type,
    priority,
    summary: summary ?? `${event.type}${projectId === null ? '' : ` in project ${projectId}`}`,
    resource:
      text(data.resource) ?? (typeof data.id === 'number' ? `${event.type.split('.')[0]}:${data.id}` : null),
    project_id: projectId,
  };
}
