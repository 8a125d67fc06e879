/**
 * @module `GET /api/v1/notifications` (newest first, `unread` filter, `before` cursor) and
 * `POST /api/v1/notifications/read` (`{ids: [...]}` or `{all: true}`): read marks are per user.
 */
import { z } from 'zod';
import type { Services } from '../../server/services.js';
import { ApiError } from '../api-error.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { parseOrThrow, readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';

const listQuery = z.strictObject({
  unread: z.enum(['true', 'false']).default('false'),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  before: z.coerce.number().int().min(1).optional(),
});

const markReadBody = z.strictObject({
  ids: z.array(z.number().int().min(1)).min(1).max(1_000).optional(),
  all: z.literal(true).optional(),
});

export function registerNotificationRoutes(defineRoute: DefineRoute, services: Services): void {
  defineRoute('/api/v1/notifications', {
    GET: [
      requirePermission('notifications.read'),
      async (c) => {
        const query = parseOrThrow(listQuery, c.req.query(), 'the query');
        const page = await services.notifications.list({
          userId: c.get('auth')!.user.id,
          unreadOnly: query.unread === 'true',
          limit: query.limit,
          before: query.before,
        });
        return ok(c, page);
      },
    ],
  });

  defineRoute('/api/v1/notifications/read', {
    POST: [
      requirePermission('notifications.read'),
      async (c) => {
        const body = await readJsonBody(c, markReadBody, services.config.server.max_body_bytes);
        if ((body.ids === undefined) === (body.all === undefined)) {
          throw new ApiError('REQUEST_INVALID', 'give either ids or all: true', {
            errors: [{ path: '(body)', message: 'exactly one of ids and all' }],
          });
        }
        const marked = await services.notifications.markRead(
          c.get('auth')!.user.id,
          body.all ? 'all' : body.ids!,
        );
        return ok(c, { marked });
      },
    ],
  });
}
