/** The daemon's answers the Admin screens read (README "Users and audit", "Notifications and platform API"). */
import { ApiFailure } from './api.js';
import type { User } from './types.js';

export const roles = ['owner', 'admin', 'operator', 'developer', 'viewer'] as const;
export const projectRoles = ['operator', 'developer', 'viewer'] as const;

export interface Account extends User {
  disabled: boolean;
  created_at: string;
}

export interface Member {
  user_id: string;
  username: string | null;
  display_name: string | null;
  role: string;
  updated_at: string;
}

export const tokenScopes = ['read', 'write', 'events', 'mcp'] as const;
export type TokenScope = (typeof tokenScopes)[number];

export interface Token {
  id: string;
  name: string;
  user_id: string;
  scopes: TokenScope[];
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface NotificationRule {
  id: number;
  event: string;
  channel: 'browser' | 'webhook' | 'push';
  target: string;
  enabled: boolean;
  project_id: number | null;
  created_at: string;
  updated_at: string;
  last_delivery: { outcome: string; status: number | null; at: string } | null;
}

export interface DeliveryReport {
  rule_id: number;
  channel: string;
  delivery_id: string | null;
  outcome: 'delivered' | 'failed' | 'refused';
  status: number | null;
  attempts: number;
  error: string | null;
}

export interface AuditEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  target: string;
  outcome: string;
  request_id: string | null;
  client: string | null;
  detail: Record<string, unknown> | null;
  hash: string;
}

export type ChainVerdict =
  | { ok: true; count: number; headHash: string | null }
  | { ok: false; brokenSeq: number; reason: string };

/** A load that a 403 turns into the daemon's message (the screen says so instead of failing). */
type Guarded<T> = { denied: string; value?: undefined } | { denied?: undefined; value: T };

export async function unlessDenied<T>(load: () => Promise<T>): Promise<Guarded<T>> {
  try {
    return { value: await load() };
  } catch (failure) {
    if (failure instanceof ApiFailure && failure.status === 403) return { denied: failure.message };
    throw failure;
  }
}

/** A time as the user's locale shows it ("never" for null). */
export function when(iso: string | null): string {
  return iso === null ? 'never' : new Date(iso).toLocaleString();
}
