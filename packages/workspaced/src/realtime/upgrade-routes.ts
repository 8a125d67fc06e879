/**
 * @module Which socket an upgrade URL names: `/api/v1/ws` (events) or
 * `/api/v1/terminals/{id}/ws` (one terminal). Parsed by splitting, no regular expression; the
 * query string is ignored.
 */
import { apiPrefix } from '../http/api-prefix.js';
import { parseId } from '../http/request-input.js';

export type UpgradeRoute = { kind: 'events' } | { kind: 'terminal'; id: number };

const maxUrlLength = 2_048;

export function matchUpgradeRoute(url: string | undefined): UpgradeRoute | undefined {
  if (!url || url.length > maxUrlLength) return undefined;
  const pathname = url.split('?', 1)[0]!;
  if (!pathname.startsWith(`${apiPrefix}/`)) return undefined;
  const parts = pathname.slice(apiPrefix.length + 1).split('/');
  if (parts.length === 1 && parts[0] === 'ws') return { kind: 'events' };
  if (parts.length === 3 && parts[0] === 'terminals' && parts[2] === 'ws') {
    const id = parseId(parts[1]!);
    return id === undefined ? undefined : { kind: 'terminal', id };
  }
  return undefined;
}
