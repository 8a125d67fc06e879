/**
 * @module `GET /api/v1/audit`: the hash-chained audit trail, newest first, filtered by actor,
 * action, outcome and time, paginated with a `before` cursor; `GET /api/v1/audit/refusals`: the
 * refused and unauthenticated requests counted per kind and minute. Admin only.
 */
import { type AuditRefusal, auditEntryView } from '@suite/web-auth';
import { z } from 'zod';
import { auditHeadReader } from '../../audit/audit-head.js';
import { AuditPageCache, queryStringOf } from '../../audit/audit-page-cache.js';
import type { Services } from '../../server/services.js';
import { ok, okFromPrefix, okPrefix } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { parseOrThrow } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';
import { iso } from '../views.js';

const text = z.string().min(1).max(256);
const instant = z.iso.datetime({ offset: true }).transform((value) => Date.parse(value));

const auditQuery = z.strictObject({
  actor: text.optional(),
  action: text.optional(),
  outcome: text.optional(),
  /** Inclusive, ISO-8601. */
  since: instant.optional(),
  /** Exclusive, ISO-8601. */
  until: instant.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** The `next_before` of the previous page. */
  before: z.coerce.number().int().min(1).optional(),
});

const refusalQuery = z.strictObject({
  /** ISO-8601: windows that end after it. */
  since: instant.optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

function refusalView(refusal: AuditRefusal) {
  return {
    kind: refusal.kind,
    window_start: iso(refusal.windowStart),
    window_seconds: refusal.windowSeconds,
    count: refusal.count,
    last_at: iso(refusal.lastAt),
    sample: refusal.sample,
  };
}

export function registerAuditRoutes(defineRoute: DefineRoute, services: Services): void {
  const pages = new AuditPageCache();
  const readHead = auditHeadReader(services.db);
  defineRoute('/api/v1/audit', {
    GET: [
      requirePermission('audit.read'),
      async (c) => {
        const page = await pages.get(queryStringOf(c.req.url), await readHead(), async () => {
          const query = parseOrThrow(auditQuery, c.req.query(), 'the query');
          const listed = await services.auth().audit.list(query);
          return okPrefix(
            JSON.stringify({ entries: listed.entries.map(auditEntryView), next_before: listed.nextBefore }),
          );
        });
        return okFromPrefix(c, page);
      },
    ],
  });
  defineRoute('/api/v1/audit/refusals', {
    GET: [
      requirePermission('audit.read'),
      async (c) => {
        const query = parseOrThrow(refusalQuery, c.req.query(), 'the query');
        const refusals = await services.auth().audit.listRefusals(query);
        return ok(c, { refusals: refusals.map(refusalView) });
      },
    ],
  });
}
