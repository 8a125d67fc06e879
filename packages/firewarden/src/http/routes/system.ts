/**
 * @module `GET /api/v1/system/diagnostics`: the doctor's checks plus run-time facts, for signed-in
 * users (credentials never appear: the PostgreSQL DSN is shown without them).
 */

import { worstStatus } from '../../diagnostics/check.js';
import { runDiagnostics } from '../../diagnostics/run-diagnostics.js';
import type { Services } from '../../server/services.js';
import { apiVersion, appVersion } from '../../version.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import type { DefineRoute } from '../route-table.js';
import { iso } from '../views.js';

export function registerSystemRoutes(defineRoute: DefineRoute, services: Services): void {
  defineRoute('/api/v1/system/diagnostics', {
    GET: [
      requirePermission('diagnostics.read'),
      async (c) => {
        const checks = await runDiagnostics({
          config: services.config,
          configFile: services.configFile,
          database: { db: services.db, dialect: services.dialect, location: services.databaseLocation },
          includeBackend: true,
          audit: services.auth().audit,
        });
        const now = services.clock();
        return ok(c, {
          status: worstStatus(checks),
          checks,
          runtime: {
            version: appVersion,
            api_version: apiVersion,
            node: process.version,
            platform: `${process.platform}-${process.arch}`,
            started_at: iso(services.startedAt),
            uptime_seconds: Math.floor((now - services.startedAt) / 1000),
            test_clock: services.testClock,
          },
        });
      },
    ],
  });
}
