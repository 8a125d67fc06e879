/**
 * @module Task changes on the event socket, stream `project:<id>`: `task.created` and
 * `task.updated` (an edit, a move between states, a worktree recorded) carry the task as the
 * REST routes answer it; `task.deleted` carries `{id, project_id}`. A board subscribed to its
 * project stays current without polling.
 */
import type { TaskRow } from '../db/schema.js';
import type { EventBus } from '../realtime/event-bus.js';
import { taskView } from './task-store.js';

type TaskEventType = 'task.created' | 'task.updated';

export function publishTask(events: EventBus, type: TaskEventType, task: TaskRow): void {
  events.publish(`project:${task.project_id}`, type, { ...taskView(task) });
}

export function publishTaskDeleted(events: EventBus, task: Pick<TaskRow, 'id' | 'project_id'>): void {
  events.publish(`project:${task.project_id}`, 'task.deleted', { id: task.id, project_id: task.project_id });
}
