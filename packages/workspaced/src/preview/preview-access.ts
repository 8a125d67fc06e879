/**
 * @module Who may open a preview, asked on the API origin (to issue a ticket) and again on the
 * preview origin for every request and upgrade (the pass alone is not enough): the daemon session
 * the pass was issued under is still alive (neither signed out nor idle nor past its end), its user is enabled and their global role holds
 * `previewPermission`. Preview traffic is dense (a dev server's page loads hundreds of modules),
 * so a verdict is reused for 5 s: signing out, disabling a user or demoting them ends their
 * previews within that time.
 */
import type { WebAuth } from '@suite/web-auth';
import { type Permission, roleHas } from '../access/permissions.js';
import { isRole } from '../access/roles.js';
import type { PreviewGrant } from './preview-tokens.js';

/**
 * A preview opens HTTP and WebSocket connections to any loopback port as the daemon's OS user:
 * the reach of a shell, so it takes the permission that starts one. `services.view` (the original
 * product's choice) would hand read-only viewers the whole loopback network.
 */
export const previewPermission: Permission = 'terminal.create';

const verdictTtlMs = 5_000;

export class PreviewAccess {
  readonly #verdicts = new Map<string, { allowed: boolean; sessionEnd: number; checkedAt: number }>();

  constructor(private readonly auth: Pick<WebAuth, 'users' | 'sessions' | 'settings'>) {}

  /** The end of the grant's session when it may still preview, else undefined. */
  async sessionEnd(grant: PreviewGrant, now = Date.now()): Promise<number | undefined> {
    const key = `${grant.userId}\n${grant.sessionId}`;
    let verdict = this.#verdicts.get(key);
    if (!verdict || now - verdict.checkedAt >= verdictTtlMs) {
      verdict = { ...(await this.#check(grant, now)), checkedAt: now };
      for (const [other, old] of this.#verdicts)
        if (now - old.checkedAt >= verdictTtlMs) this.#verdicts.delete(other);
      this.#verdicts.set(key, verdict);
    }
    return verdict.allowed && verdict.sessionEnd > now ? verdict.sessionEnd : undefined;
  }

  async #check(grant: PreviewGrant, now: number): Promise<{ allowed: boolean; sessionEnd: number }> {
    const user = await this.auth.users.getById(grant.userId);
    if (!user || user.disabled || !isRole(user.role) || !roleHas(user.role, previewPermission))
      return { allowed: false, sessionEnd: 0 };
    const sessions = await this.auth.sessions.listForUser(grant.userId);
    const session = sessions.find((candidate) => candidate.id === grant.sessionId);
    // Listed rows may have idled out without being purged yet; preview traffic does not keep a
    // session alive (it never carries the session cookie), so an idle session ends its previews.
    const idleEnd = session ? session.lastSeenAt + this.auth.settings.sessions.idleTimeoutSeconds * 1000 : 0;
    return session && idleEnd > now
      ? { allowed: true, sessionEnd: session.expiresAt }
      : { allowed: false, sessionEnd: 0 };
  }
}
