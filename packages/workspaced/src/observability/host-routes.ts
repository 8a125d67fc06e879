/**
 * @module `GET /observability/host` (`services.view`: host figures are service-level
 * information, readable by every role that reads services and ports).
 */
import type { Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { createCpuSampler } from './cpu-usage.js';
import { hostMetrics } from './host-metrics.js';

export function registerHostObservabilityRoutes(app: Hono<AppEnv>, { dataDir }: DaemonContext): void {
  const cpu = createCpuSampler();
  app.get('/observability/host', requirePermission('services.view'), async (c) =>
    c.json(await hostMetrics(dataDir, cpu)),
  );
}
