/**
 * @module zod schemas of every query parameter and path argument: they validate requests and
 * are also the source of the OpenAPI document.
 */
import { z } from 'zod';
import { categoryAliases } from '../stats/stat-keys.js';

const nonNegativeInteger = (what: string) =>
  z
    .string()
    .regex(/^\d{1,9}$/, `${what} must be a non-negative integer`)
    .transform(Number);

const flag = (description: string) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
    .transform((value) => value === 'true' || value === '1' || value === 'yes')
    .optional()
    .describe(description);

/** A network's server to limit the answer to (ignored by a single server). */
const serverShape = {
  server: z
    .string()
    .optional()
    .describe('Network only: count this server alone (a name of `servers`); default every server'),
};

const pagingShape = {
  limit: nonNegativeInteger('limit')
    .refine((value) => value >= 1, 'limit must be at least 1')
    .optional()
    .describe('Page size; above pagination.max-limit it is clamped (the response says the effective limit)'),
  page: nonNegativeInteger('page').optional().describe('Zero-based page number'),
  order: z.enum(['asc', 'desc'], { error: 'order must be asc or desc' }).optional(),
  online_only: flag('Only players online right now'),
};

export const playersQuerySchema = z.object({
  ...pagingShape,
  ...serverShape,
  order: pagingShape.order.describe('By name; default asc (A to Z)'),
  search: z
    .string()
    .max(64, 'search is at most 64 characters')
    .optional()
    .describe('Case-insensitive name substring'),
});

/** Optional window of the gains leaderboards and summaries (see history/time-window.ts). */
const windowShape = {
  since: z
    .string()
    .max(40, 'since is at most 40 characters')
    .optional()
    .describe('Rank by what was gained since: a duration (30m, 12h, 7d, 2w) or an ISO date or date-time'),
  period: z
    .enum(['day', 'week', 'month'], { error: 'period must be day, week or month' })
    .optional()
    .describe('Rank by what was gained in the current calendar day, week (from Monday) or month'),
};

export const leaderboardQuerySchema = z.object({
  ...pagingShape,
  ...serverShape,
  ...windowShape,
  order: pagingShape.order.describe('By value; default desc (highest first)'),
});

/** A namespace as the game allows it in resource locations (`minecraft`, a mod id). */
const resourceNamespace = /^[a-z0-9_.-]{1,64}$/;

/** `crafted,mined,pickedUp,...`: short names, aliases or full `<ns>:<category>` names. */
const categoriesParam = z
  .string()
  .max(500)
  .transform((text, context) => {
    const categories = new Set<string>();
    for (const part of text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean)) {
      const namespace = part.includes(':') ? part.slice(0, part.indexOf(':')) : 'minecraft';
      const bare = part.includes(':') ? part.slice(part.indexOf(':') + 1) : part;
      const category =
        categoryAliases[bare.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] ??
        categoryAliases[bare.toLowerCase()];
      if (!category || !resourceNamespace.test(namespace)) {
        context.addIssue({ code: 'custom', message: `unknown category "${part}"` });
        return z.NEVER;
      }
      categories.add(`${namespace}:${category}`);
    }
    return [...categories];
  });

export const playerQuerySchema = z.object({
  ...serverShape,
  categories: categoriesParam
    .optional()
    .describe(
      'Comma list of categories to include: crafted, mined, used, broken, pickedUp, dropped, killed, killedBy, custom',
    ),
  summary: flag('Include `summary` (default true)'),
  raw: flag('Include the per-category maps and `stats` (default true)'),
});

export const summaryQuerySchema = z.object({
  ...windowShape,
  ...serverShape,
  combat: flag('Include `combat` (default true)'),
  movement: flag('Include `movement` (default true)'),
  activity: flag('Include `activity` (default true)'),
});

/** A UUID (with or without dashes) or a player name. */
export const playerIdParam = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,36}$/, 'player id must be a UUID or a player name');

export const statParam = z
  .string()
  .regex(/^[A-Za-z0-9_.:\-/]{1,200}$/, 'stat must be a built-in name, category.key or a namespaced key');

/** First problem of a failed parse, as the `error` message of a 400. */
export function describeIssue(error: z.ZodError, where: string): string {
  const issue = error.issues[0];
  const field = issue?.path.join('.') ?? '';
  const message = issue?.message ?? 'invalid';
  return field === '' || message.startsWith(field)
    ? `Invalid ${where}: ${message}`
    : `Invalid ${where} ${field}: ${message}`;
}
