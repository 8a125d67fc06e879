/**
 * @module Who may open a preview, asked on the API origin (to issue a ticket) and again on the
 * preview origin for every request and upgrade (the pass alone is not enough): the daemon session
 * the pass was issued under is still alive (neither signed out nor idle nor past its end), its user
 * is enabled and holds `previewPermission` in at least one project (`mayPreview`). Preview traffic is dense (a dev server's page loads hundreds of modules),
 * so a verdict is reused for 5 s: signing out, disabling a user or demoting them ends their
 * previews within that time.
 */
import type { WebAuth } from '@suite/web-auth';
import type { Permission } from '../access/permissions.js';
import { grantedInSomeProject } from '../access/project-permission.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { PreviewGrant } from './preview-tokens.js';

/**
 * A preview opens HTTP and WebSocket connections to any loopback port as the daemon's OS user:
 * the reach of a shell, so it takes the permission that starts one. `services.view` (the original
 * product's choice) would hand read-only viewers the whole loopback network.
 */
export const previewPermission: Permission = 'terminal.create';

/**
 * The right to start a shell somewhere: `previewPermission` in the global role and in at least one
 * project (owners and admins reach every project with their own role; anyone else through a
 * membership, capped by the global role as everywhere). A developer who is a member of no project,
 * or only a viewer in each, cannot start a terminal, so cannot preview either.
 */
export function mayPreview(db: WorkspacedDb, user: { id: string; role: string }): Promise<boolean> {
  return grantedInSomeProject(db, user, previewPermission);
}

const verdictTtlMs = 5_000;

export class PreviewAccess {
  readonly #verdicts = new Map<string, { allowed: boolean; sessionEnd: number; checkedAt: number }>();

  constructor(
    private readonly auth: Pick<WebAuth, 'users' | 'sessions' | 'settings'>,
    private readonly db: WorkspacedDb,
  ) {}

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
    if (!user || user.disabled || !(await mayPreview(this.db, user)))
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
