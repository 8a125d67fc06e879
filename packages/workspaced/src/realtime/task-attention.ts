/**
 * @module A task's state as seen by the attention center: `needs_input` raises `task.blocked`,
 * `failed` raises `task.failed`, any other state clears the task's item.
 */
import type { TaskRow } from '../db/schema.js';
import type { AttentionCenter } from './attention-center.js';

export function noteTaskState(
  attention: AttentionCenter,
  task: Pick<TaskRow, 'id' | 'project_id' | 'title' | 'state'>,
): void {
  const resource = `task:${task.id}`;
  const base = { projectId: task.project_id, resource };
  if (task.state === 'needs_input')
    attention.raise({
      ...base,
      kind: 'task.blocked',
      summary: `task "${task.title.slice(0, 80)}" needs input`,
    });
  else if (task.state === 'failed')
    attention.raise({ ...base, kind: 'task.failed', summary: `task "${task.title.slice(0, 80)}" failed` });
  else attention.clear(resource);
}
