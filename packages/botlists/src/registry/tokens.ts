/**
 * @module Token resolution: `LIST_TOKEN_<ID>` from the environment, overridden per list by the `tokens` option.
 */
import type { AuthScheme, BotlistRecord } from '../types.js';
import { resolveList } from './resolve-list.js';

type Env = Record<string, string | undefined>;

/** Reads the literal (`LIST_TOKEN_TOP.GG`) then the portable (`LIST_TOKEN_TOP_GG`) form; blank values count as unset. */
function tokenFromEnv(list: BotlistRecord, env: Env): string | undefined {
  const literal = env[`LIST_TOKEN_${list.id.toUpperCase()}`]?.trim();
  const portable = env[list.tokenEnvKey]?.trim();
  return literal || portable || undefined;
}

/**
 * Token per list id. The `tokens` option wins over the environment; its keys may be ids or aliases
 * (`topgg`). Unknown keys are kept as given so custom lists work.
 */
export function resolveTokens(
  lists: readonly BotlistRecord[],
  overrides: Record<string, string> = {},
  env: Env = typeof process === 'undefined' ? {} : process.env,
): Map<string, string> {
  const tokens = new Map<string, string>();
  for (const list of lists) {
    const token = tokenFromEnv(list, env);
    if (token) tokens.set(list.id, token);
  }
  for (const [key, value] of Object.entries(overrides)) {
    if (!value?.trim()) continue;
    const id = resolveList(key, lists)?.id ?? key;
    tokens.set(id, value.trim());
  }
  return tokens;
}

/** Writes the scheme prefix once: a token already starting with `Bearer `/`Bot ` is sent as is. */
export function authValue(token: string, scheme: AuthScheme = 'raw'): string {
  if (scheme === 'raw') return token;
  return token.toLowerCase().startsWith(`${scheme.toLowerCase()} `) ? token : `${scheme} ${token}`;
}
