/**
 * What a socket's close code means for reconnecting (README "Close codes"):
 * 4401 (the session ended) is final, since every new socket would be refused until the user signs
 * in again; 4403 (a permission was withdrawn), 4408 (too slow a reader) and dropped connections
 * reconnect, and the daemon decides again what the socket may do (a demoted writer watches).
 * Answers the text to show for a final close, or undefined when the socket may reconnect.
 */
export function finalCloseText(event: CloseEvent): string | undefined {
  if (event.code === 4401) return `session ended (${event.reason || 'signed out'}): sign in again`;
  return undefined;
}
