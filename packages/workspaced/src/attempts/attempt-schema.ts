/**
 * @module Bodies of the attempt routes. A prompt is text without NUL (an argument cannot hold
 * one) of at most 100,000 characters.
 */
import { z } from 'zod';

const prompt = z
  .string()
  .min(1)
  .max(100_000)
  .refine((value) => !value.includes('\0'), 'contains a NUL byte')
  .refine((value) => value.trim() !== '', 'is blank');

export const startAttemptSchema = z
  .object({
    profile: z.string().min(1).max(64),
    prompt: prompt.optional(),
    base_branch: z.string().max(256).optional(),
  })
  .strict();

export const followUpSchema = z.object({ prompt }).strict();

/** `attempt_id` of the diff, land and pull request routes: default the task's newest attempt. */
export const attemptIdSchema = z.coerce.number().int().positive().optional();
