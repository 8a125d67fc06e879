/**
 * @module Task fields as the API accepts them (zod is the single source of validation and
 * types) and the task states.
 */
import { z } from 'zod';

/** Board columns; `running`, `needs_input`, `review` and `failed` are the states agents report. */
export const taskStates = ['backlog', 'todo', 'running', 'needs_input', 'review', 'done', 'failed'] as const;
export type TaskState = (typeof taskStates)[number];

const title = z.string().trim().min(1).max(200);
const description = z.string().max(20_000);
/** Stored and sorted by (higher first); what the numbers mean is the team's choice. */
const priority = z.number().int().min(0).max(1_000);
const state = z.enum(taskStates);
const version = z.number().int().min(1);

export const createTaskSchema = z.object({
  title,
  description: description.default(''),
  priority: priority.default(0),
  state: state.default('todo'),
});

export const updateTaskSchema = z
  .object({ title, description, priority, version })
  .partial()
  .refine(
    (patch) => patch.title !== undefined || patch.description !== undefined || patch.priority !== undefined,
    {
      message: 'send at least one of title, description, priority',
    },
  );

export const moveTaskSchema = z.object({ state, version });

export type CreateTask = z.infer<typeof createTaskSchema>;
export type UpdateTask = z.infer<typeof updateTaskSchema>;
