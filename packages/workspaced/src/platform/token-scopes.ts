/**
 * @module What a platform token may reach. A token acts as its user, with at most that user's
 * role; its scopes narrow it further:
 * - `read`: GET and HEAD on the API;
 * - `write`: every method on the API (includes `read`);
 * - `events`: `POST /events` only;
 * - `mcp`: `GET /mcp`, `POST /mcp/tools/{tool}/invoke` and the MCP endpoint `/mcp/stream`
 *   (each tool is still checked against the user's role, exactly like its REST route).
 * Account routes (tokens, users, `/me`, logout, preview tickets) never accept a token, so a
 * leaked token cannot mint another or change an account. The MCP endpoint, the other way round,
 * takes nothing but a token: MCP clients send neither cookies nor CSRF headers.
 */
import { z } from 'zod';

const tokenScopes = ['read', 'write', 'events', 'mcp'] as const;
export type TokenScope = (typeof tokenScopes)[number];

export const scopesSchema = z
  .array(z.enum(tokenScopes))
  .min(1)
  .max(tokenScopes.length)
  .refine((scopes) => new Set(scopes).size === scopes.length, 'scopes must not repeat');

const sessionOnlyPrefixes = ['/tokens', '/users', '/me', '/logout', '/preview'];

const under = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

function isSessionOnly(path: string): boolean {
  return sessionOnlyPrefixes.some((prefix) => under(path, prefix));
}

/** `path` is relative to `/api/v1`. */
export function isTokenOnly(path: string): boolean {
  return path === '/mcp/stream';
}

/** `path` is relative to `/api/v1`. */
export function scopeAllows(scopes: readonly TokenScope[], method: string, path: string): boolean {
  if (isSessionOnly(path)) return false;
  if (under(path, '/mcp') && scopes.includes('mcp')) return true;
  if (path === '/events' && method === 'POST' && scopes.includes('events')) return true;
  if (scopes.includes('write')) return true;
  return scopes.includes('read') && (method === 'GET' || method === 'HEAD');
}
