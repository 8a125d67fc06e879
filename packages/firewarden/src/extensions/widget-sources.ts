/**
 * @module The data sources a widget may declare. There are only two, both read by the server on
 * the widget's behalf (no extension code runs): `http.local`, a JSON document from a loopback URL,
 * and `firewarden`, a built-in metric of this installation.
 */
import { isLoopbackHost } from '@suite/server-kit';

/** Built-in metrics: what each returns and which capability it needs besides `dashboard.widget`. */
export const builtinMetrics = {
  'app.version': { capabilities: [] },
  'app.uptime_seconds': { capabilities: [] },
  'notifications.count': { capabilities: ['events.read'] },
  'extensions.count': { capabilities: [] },
} as const satisfies Record<string, { capabilities: readonly string[] }>;

export type BuiltinMetric = keyof typeof builtinMetrics;
export const builtinMetricNames = Object.keys(builtinMetrics) as [BuiltinMetric, ...BuiltinMetric[]];

/** Host names that may name loopback; each is still resolved and checked when fetched. */
const loopbackNames = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost']);

/** Syntax check done at install time: http(s), no credentials, a loopback literal or name. */
export function isLoopbackUrlSyntax(text: string): boolean {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  return isLoopbackHost(url.hostname) || loopbackNames.has(url.hostname.toLowerCase());
}
