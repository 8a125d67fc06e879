/**
 * @module `POST /tokens` (create; the secret is in this answer only), `GET /tokens` (the caller's
 * tokens, metadata only) and `POST /tokens/{id}/revoke` (the caller's own token, or anyone's with
 * `users.manage`). Session only: token-scopes.ts keeps tokens away from these routes.
 */
import type { Hono } from 'hono';
import { z } from 'zod';
import { roleHas } from '../access/permissions.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { scopesSchema } from './token-scopes.js';
import { createToken, findToken, listTokens, revokeToken, tokenView } from './token-store.js';

const dayMs = 24 * 60 * 60 * 1000;

/** Live (unrevoked) tokens one user may hold. */
const maxLiveTokens = 100;

const createTokenSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    scopes: scopesSchema.default(['read']),
    /** Omitted: the token lives until revoked. */
    expires_in_days: z.number().int().min(1).max(3650).optional(),
  })
  .strict();

export function registerTokenRoutes(app: Hono<AppEnv>, { db }: { db: WorkspacedDb }): void {
  app.post('/tokens', async (c) => {
    const input = await readJson(c, createTokenSchema);
    const live = (await listTokens(db, c.var.principal.id)).filter((row) => row.revoked_at === null);
    if (live.length >= maxLiveTokens)
      throw new ApiError('TOO_MANY_TOKENS', `at most ${maxLiveTokens} live tokens per user; revoke one`);
    const { row, secret } = await createToken(db, {
      name: input.name,
      userId: c.var.principal.id,
      scopes: input.scopes,
      expiresAt: input.expires_in_days === undefined ? null : Date.now() + input.expires_in_days * dayMs,
    });
    return c.json({ ...tokenView(row), secret }, 201);
  });

  app.get('/tokens', async (c) =>
    c.json({ tokens: (await listTokens(db, c.var.principal.id)).map(tokenView) }),
  );

  app.post('/tokens/:id/revoke', async (c) => {
    const id = c.req.param('id');
    const row = /^[0-9a-f]{16}$/.test(id) ? await findToken(db, id) : undefined;
    const principal = c.var.principal;
    if (!row || (row.user_id !== principal.id && !roleHas(principal.role, 'users.manage')))
      throw notFound('token');
    await revokeToken(db, row.id);
    return c.json(tokenView((await findToken(db, row.id))!));
  });
}
