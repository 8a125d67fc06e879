/**
 * @module Which socket endpoint an upgrade URL names, among those `http/app.ts` lists. Parsed by
 * splitting, no regular expression; the query string is ignored.
 */
import { apiPrefix } from '../http/api-prefix.js';
import type { SocketEndpoint, SocketOpener } from './socket-endpoint.js';

const maxUrlLength = 2_048;

export function matchUpgradeRoute(
  url: string | undefined,
  endpoints: readonly SocketEndpoint[],
): SocketOpener | undefined {
  if (!url || url.length > maxUrlLength) return undefined;
  const pathname = url.split('?', 1)[0]!;
  if (!pathname.startsWith(`${apiPrefix}/`)) return undefined;
  const segments = pathname.slice(apiPrefix.length + 1).split('/');
  for (const endpoint of endpoints) {
    const opener = endpoint.route(segments);
    if (opener) return opener;
  }
  return undefined;
}
