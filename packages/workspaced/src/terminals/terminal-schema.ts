/**
 * @module Request bodies of the terminal routes and messages of the terminal socket, as zod
 * schemas. Sizes are bounded so no single request or frame can hold much memory.
 */
import { z } from 'zod';

const noNul = (value: string) => !value.includes('\0');
const text = (max: number) => z.string().max(max).refine(noNul, 'contains a NUL byte');

const cols = z.number().int().min(1).max(1_000);
const rows = z.number().int().min(1).max(500);
export const sizeSchema = z.object({ cols, rows });

/** REST and socket input are both capped (OrbyNode caps REST input at 64 KiB). */
const maxInputChars = 64 * 1024;

/** POSIX environment names; the class has no nested quantifier, so the match is linear. */
const envName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,255}$/, 'not a valid environment variable name');

export const createTerminalSchema = z
  .object({
    project_id: z.number().int().positive(),
    /** Relative to the project root, like the file routes' paths; default the root. */
    cwd: z.string().max(8_192).default(''),
    /** A task of the project whose worktree was opened: `cwd` is then relative to that worktree. */
    task_id: z.number().int().positive().optional(),
    shell: text(4_096).min(1).optional(),
    args: z.array(text(4_096)).max(64).default([]),
    env: z
      .record(envName, text(32 * 1024))
      .refine((env) => Object.keys(env).length <= 128, 'at most 128 variables')
      .default({}),
    cols: cols.optional(),
    rows: rows.optional(),
    size: sizeSchema.optional(),
  })
  .transform(({ size, ...body }) => ({
    ...body,
    cols: body.cols ?? size?.cols ?? 80,
    rows: body.rows ?? size?.rows ?? 24,
  }));

export const inputSchema = z.object({ data: z.string().min(1).max(maxInputChars) });

/** Text frames of the terminal socket: `{"input": "..."}` or `{"resize": {"cols", "rows"}}`. */
export const socketMessageSchema = z.union([
  z.object({ input: z.string().max(maxInputChars) }).strict(),
  z.object({ resize: sizeSchema }).strict(),
]);
