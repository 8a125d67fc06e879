/**
 * What a socket's close code means for reconnecting (README "Socket close codes and limits"):
 * 4401 (the session ended) and 4403 (a permission was withdrawn) are final, so reconnecting
 * would only be refused again; 4408 (too slow a reader) and dropped connections are retried.
 * Answers the text to show for a final close, or undefined when the socket may reconnect.
 */
export function finalCloseText(event: CloseEvent): string | undefined {
  if (event.code === 4401) return `session ended (${event.reason || 'signed out'}): sign in again`;
  if (event.code === 4403) return `access withdrawn (${event.reason || 'permission removed'})`;
  return undefined;
}
