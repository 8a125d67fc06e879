/**
 * @module Public routes: `GET /api/v1/version` and `GET /api/v1/system/health`. They answer
 * without a session and say nothing about the host, the database or the users.
 */
import { sql } from 'kysely';
import type { Services } from '../../server/services.js';
import { apiVersion, appVersion } from '../../version.js';
import { ApiError } from '../api-error.js';
import { ok } from '../envelope.js';
import type { DefineRoute } from '../route-table.js';

export function registerMetaRoutes(defineRoute: DefineRoute, services: Services): void {
  defineRoute('/api/v1/version', {
    GET: [
      async (c) =>
        ok(c, {
          name: 'firewarden',
          version: appVersion,
          api_version: apiVersion,
          // `serve --sandbox` sets it: the UI says "sandbox" on every page.
          ...(process.env.FIREWARDEN_SANDBOX === '1' ? { sandbox: true } : {}),
        }),
    ],
  });

  defineRoute('/api/v1/system/health', {
    GET: [
      async (c) => {
        try {
          await sql`select 1`.execute(services.db);
        } catch (error) {
          services.logger.error({ err: error }, 'health check: database unavailable');
          throw new ApiError('DB_UNAVAILABLE', 'the database does not answer');
        }
        return ok(c, { status: 'ok' });
      },
    ],
  });
}
