/**
 * @module How the daemon ends a WebSocket, and the close codes it uses beyond the standard ones
 * (README "Close codes"): 4401 the session ended (sign in again), 4403 a permission the
 * socket relies on was withdrawn (reconnect: the daemon decides again), 4408 the client read too
 * slowly and its queue passed its byte bound (reconnect; the event socket resumes with `last_seq`).
 */
import type { WebSocket } from 'ws';

export const closeCodes = {
  sessionEnded: 4401,
  permissionWithdrawn: 4403,
  tooSlow: 4408,
} as const;

/** A client that never answers the close handshake (or never reads up to it) is cut off after this. */
const closeGraceMs = 10_000;

/** Sends the close frame (behind what is already queued), then cuts the connection if it lingers. */
export function endSocket(ws: WebSocket, code: number, reason: string, graceMs = closeGraceMs): void {
  if (ws.readyState === ws.CLOSED) return;
  if (ws.readyState !== ws.CLOSING) ws.close(code, reason);
  setTimeout(() => ws.terminate(), graceMs).unref();
}
