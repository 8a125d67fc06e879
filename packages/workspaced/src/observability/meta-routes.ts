/**
 * @module `GET /health` {status, uptime_secs} and `GET /version` {name, version}: public, so a
 * supervisor or the suite launcher can probe the daemon before anyone signs in.
 */
import type { Hono } from 'hono';
import type { AppEnv, DaemonContext } from '../http/app-env.js';

export function registerMetaRoutes(app: Hono<AppEnv>, context: DaemonContext): void {
  app.get('/health', (c) =>
    c.json({ status: 'ok', uptime_secs: Math.floor((Date.now() - context.startedAt) / 1_000) }),
  );
  app.get('/version', (c) => c.json({ name: context.name, version: context.version }));
}
