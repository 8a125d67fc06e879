/**
 * @module The GitHub settings every runtime reads from its environment (Node's `process.env`,
 * a Worker's bindings, a Vercel function's variables): one schema, one token-pool rule.
 */
import { z } from 'zod';
import { defaultGithubApiUrl } from '../app.js';
import type { GithubSettings } from '../http/services.js';

/** `GITHUB_TOKENS` (comma-separated pool), `GITHUB_TOKEN` and `GITHUB_API_URL`. */
export const githubEnvironmentSchema = z.object({
  GITHUB_TOKENS: z.string().optional(),
  GITHUB_TOKEN: z.string().optional(),
  GITHUB_API_URL: z.url().default(defaultGithubApiUrl),
  /** GitHub calls one client may cause per minute (cold cards); default 120. */
  CARDS_GITHUB_CALLS_PER_CLIENT: z
    .string()
    .regex(/^\d{1,9}$/, 'must be a whole number of calls per minute')
    .transform(Number)
    .optional(),
});

type GithubEnvironment = z.infer<typeof githubEnvironmentSchema>;

/** `GITHUB_TOKENS` plus `GITHUB_TOKEN`, without blanks or repeats. */
function tokenPool(environment: GithubEnvironment): string[] {
  const tokens = [...(environment.GITHUB_TOKENS ?? '').split(','), environment.GITHUB_TOKEN ?? '']
    .map((token) => token.trim())
    .filter(Boolean);
  return [...new Set(tokens)];
}

/** The `github` option of `createApp` for a parsed environment (the runtime's global fetch). */
export function githubSettingsFrom(environment: GithubEnvironment): Partial<GithubSettings> {
  const settings: Partial<GithubSettings> = {
    tokens: tokenPool(environment),
    apiUrl: environment.GITHUB_API_URL,
  };
  if (environment.CARDS_GITHUB_CALLS_PER_CLIENT !== undefined)
    settings.callsPerClientPerMinute = environment.CARDS_GITHUB_CALLS_PER_CLIENT;
  return settings;
}

/** "NAME: problem" for the first invalid variable, so a misconfiguration names what to fix. */
export function describeEnvironmentError(error: z.ZodError): string {
  const issue = error.issues[0]!;
  return `${String(issue.path[0])}: ${issue.message}`;
}
