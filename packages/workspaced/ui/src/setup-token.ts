/**
 * The one-time setup token, read once when the page loads from the URL the daemon printed
 * (`/setup#token=...`). It travels in the fragment, which the browser never sends: not to the
 * daemon's access log, not in a Referer. It is then removed from the address bar and the history
 * entry, and the page continues at `/`.
 */
export function takeSetupToken(): string {
  const token = new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
  if (token !== '' || window.location.pathname === '/setup') {
    const rest = window.location.pathname === '/setup' ? '/' : window.location.pathname;
    window.history.replaceState(null, '', `${rest}${window.location.search}`);
  }
  return token;
}
