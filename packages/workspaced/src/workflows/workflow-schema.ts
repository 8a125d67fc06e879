/**
 * @module Workflow definitions and start requests as the API accepts them (zod is the single
 * source of validation and types), and the states of runs and of their steps. Step kinds:
 * `agent` (a command), `approval` (waits for agent.approve), `land` (lands the run's task).
 */
import { z } from 'zod';
import { landStrategies } from '../attempts/land.js';
import { CommandSyntaxError, splitCommand } from './command-template.js';

/** Run states; `waiting_approval` is the original product's spelling (the spec's prose: "waiting-approval"). */
const runStatuses = ['running', 'waiting_approval', 'completed', 'failed', 'cancelled'] as const;
export type RunStatus = (typeof runStatuses)[number];

const stepStatuses = ['pending', 'running', 'waiting_approval', 'completed', 'failed', 'cancelled'] as const;
export type StepStatus = (typeof stepStatuses)[number];

/** Appears in URLs (`/workflows/{name}/start`), hence the narrow alphabet. */
export const workflowNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, '1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit');

const agentName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, '1-64 of A-Z a-z 0-9 . _ -, starting with a letter or digit');

const stepKinds = ['agent', 'approval', 'land'] as const;
export type StepKind = (typeof stepKinds)[number];

const stepSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    kind: z.enum(stepKinds),
    agents: z.array(agentName).max(16).default([]),
    command: z.string().max(4_096).default(''),
    /** How a `land` step lands the run's task (`POST /tasks/{id}/land`'s strategies); default merge. */
    strategy: z.enum(landStrategies).optional(),
  })
  .superRefine((step, ctx) => {
    if (step.kind !== 'land' && step.strategy !== undefined)
      ctx.addIssue({ code: 'custom', path: ['strategy'], message: 'only a land step has a strategy' });
    if (step.kind !== 'agent') {
      if (step.command.trim() !== '')
        ctx.addIssue({ code: 'custom', path: ['command'], message: `a ${step.kind} step runs no command` });
      return;
    }
    try {
      splitCommand(step.command);
    } catch (error) {
      if (!(error instanceof CommandSyntaxError)) throw error;
      ctx.addIssue({ code: 'custom', path: ['command'], message: error.message });
    }
  });

export const createWorkflowSchema = z.object({
  name: workflowNameSchema,
  steps: z
    .array(stepSchema)
    .min(1)
    .max(50)
    .refine((steps) => new Set(steps.map((step) => step.name)).size === steps.length, {
      message: 'step names must be unique',
    })
    .refine((steps) => steps.filter((step) => step.kind === 'land').length <= 1, {
      message: 'a workflow lands its task at most once (one land step)',
    }),
});

/** Strings are used as given; numbers and booleans as their decimal / `true` `false` text. */
const variableValue = z
  .union([z.string().max(8_192), z.number(), z.boolean()])
  .transform((value) => String(value))
  .refine((value) => !value.includes('\0'), 'a value cannot hold a NUL character (arguments cannot)');

export const startWorkflowSchema = z.object({
  /**
   * The run's project: its folder is every agent step's working directory. Optional (the spec's
   * start body is `{variables}` alone): without it the caller's only startable project is used.
   */
  project_id: z.number().int().min(1).optional(),
  /**
   * The task the run works on, in its project (default project: the task's). Required by a
   * workflow with a `land` step, which lands this task.
   */
  task_id: z.number().int().min(1).optional(),
  variables: z
    .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a variable name'), variableValue)
    .refine((variables) => Object.keys(variables).length <= 64, 'at most 64 variables')
    .default({}),
});

export const latestRunQuerySchema = z.object({
  workflow: workflowNameSchema.optional(),
  project_id: z.coerce.number().int().min(1).optional(),
});

export type WorkflowStep = z.infer<typeof stepSchema>;
export type CreateWorkflow = z.infer<typeof createWorkflowSchema>;
