/**
 * @module Sockets whose session ends while nobody types: every `intervalMs` the session of each
 * open socket is looked up without touching it (an open socket is not activity, or the idle
 * timeout would never end a session with a tab left open) and a socket whose session is gone,
 * past its idle timeout or absolute lifetime, or whose user is disabled, is closed with 4401.
 */
import type { WebAuth } from '@suite/web-auth';
import type { Logger } from 'pino';
import { closeCodes } from './socket-close.js';
import type { RegisteredSocket, SocketRegistry } from './socket-registry.js';

const defaultSessionCheckMs = 30_000;

async function endExpired(auth: WebAuth, sockets: SocketRegistry): Promise<void> {
  const byUser = new Map<string, RegisteredSocket[]>();
  for (const socket of sockets.list())
    byUser.set(socket.userId, [...(byUser.get(socket.userId) ?? []), socket]);
  const idleMs = auth.settings.sessions.idleTimeoutSeconds * 1000;
  for (const [userId, mine] of byUser) {
    const user = await auth.users.getById(userId);
    const sessions = user && !user.disabled ? await auth.sessions.listForUser(userId) : [];
    const now = Date.now();
    const live = new Set(
      sessions
        .filter((session) => now < session.expiresAt && now - session.lastSeenAt < idleMs)
        .map((session) => session.id),
    );
    for (const socket of mine)
      if (!live.has(socket.sessionId))
        socket.close(closeCodes.sessionEnded, 'session expired; sign in again');
  }
}

/** Starts the periodic check; returns the function that stops it. */
export function startSessionExpiry(
  auth: WebAuth,
  sockets: SocketRegistry,
  logger: Logger,
  intervalMs = defaultSessionCheckMs,
): () => void {
  const timer = setInterval(() => {
    endExpired(auth, sockets).catch((error: unknown) =>
      logger.warn({ err: error }, 'checking the sessions of open sockets failed'),
    );
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
