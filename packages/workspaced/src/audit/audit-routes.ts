/**
 * @module `GET /audit` (audit.view): the newest entries of the hash-chained audit trail first,
 * filtered and paged with `before`; `GET /audit/verify` re-checks the whole keyed chain against
 * its head kept outside the database (`?incremental=true`: only the entries since the last
 * verification) and reports the head it checked.
 */
import { auditEntryView, type WebAuth } from '@suite/web-auth';
import type { Hono } from 'hono';
import { z } from 'zod';
import { requirePermission } from '../access/project-access.js';
import type { AppEnv } from '../http/app-env.js';
import { readQuery } from '../http/request-input.js';

const text = z.string().min(1).max(256);
const auditQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  before: z.coerce.number().int().min(1).optional(),
  actor: text.optional(),
  action: text.optional(),
  outcome: text.optional(),
});

const verifyQuery = z.object({ incremental: z.enum(['true', 'false']).optional() });

export function registerAuditRoutes(app: Hono<AppEnv>, auth: WebAuth): void {
  app.get('/audit', requirePermission('audit.view'), async (c) => {
    const query = readQuery(c, auditQuery);
    const page = await auth.audit.list(query);
    return c.json({ entries: page.entries.map(auditEntryView), next_before: page.nextBefore });
  });

  app.get('/audit/verify', requirePermission('audit.view'), async (c) => {
    const { incremental } = readQuery(c, verifyQuery);
    return c.json(await auth.audit.verifyChain({ incremental: incremental === 'true' }));
  });
}
