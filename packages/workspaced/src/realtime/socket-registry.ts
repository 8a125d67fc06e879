/**
 * @module Every open WebSocket (event and terminal sockets) with the user and session it was
 * opened under, so the daemon can end them when that changes: logout ends one session's sockets,
 * disabling a user or changing their password ends all of theirs (4401), a role or membership
 * change has each of the user's sockets check its access again (4403 where it was withdrawn).
 * It also counts sockets per session (at most `maxSocketsPerSession`, checked at the upgrade).
 */
import { closeCodes } from './socket-close.js';
import type { ServedSocket } from './socket-endpoint.js';

/** `recheck` decides again, with the user's current session and role, whether it may stay open. */
export interface RegisteredSocket extends ServedSocket {
  userId: string;
  sessionId: string;
  close(code: number, reason: string): void;
}

/** Event plus terminal sockets one session may hold open at once. */
const defaultMaxSocketsPerSession = 16;

export class SocketRegistry {
  private readonly sockets = new Set<RegisteredSocket>();

  constructor(readonly maxSocketsPerSession = defaultMaxSocketsPerSession) {}

  /** Registers a socket; returns the function that forgets it (call it on close). */
  add(socket: RegisteredSocket): () => void {
    this.sockets.add(socket);
    return () => this.sockets.delete(socket);
  }

  countForSession(sessionId: string): number {
    let count = 0;
    for (const socket of this.sockets) if (socket.sessionId === sessionId) count++;
    return count;
  }

  list(): RegisteredSocket[] {
    return [...this.sockets];
  }

  /** Logout: the session's sockets close with 4401. */
  endSession(sessionId: string, reason: string): void {
    for (const socket of this.list())
      if (socket.sessionId === sessionId) socket.close(closeCodes.sessionEnded, reason);
  }

  /** Disabled, or every session ended (password changed): the user's sockets close with 4401. */
  endUser(userId: string, reason: string): void {
    for (const socket of this.list())
      if (socket.userId === userId) socket.close(closeCodes.sessionEnded, reason);
  }

  /** A role or membership changed: each of the user's sockets checks its access again. */
  async recheckUser(userId: string): Promise<void> {
    const mine = this.list().filter((socket) => socket.userId === userId);
    await Promise.all(mine.map((socket) => socket.recheck()));
  }
}
