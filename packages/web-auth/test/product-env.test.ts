/**
 * @module The middleware factories fit a product's own Hono environment (more variables than
 * ours) without casts: this file must type-check (`npm run typecheck`), and the product-shaped
 * app below must work.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AuthErrorWriter,
  createWebAuth,
  hostAllowList,
  loadSession,
  originCheck,
  requireCsrf,
  requireSession,
  serializeSessionCookie,
  type WebAuth,
  type WebAuthVariables,
} from '../src/index.js';
import { cheapArgon2 } from './support/clock.js';
import { openTestDatabase, type TestDatabase } from './support/databases.js';

type ProductEnv = { Variables: WebAuthVariables & { requestId: string } };

describe('middleware in a product environment', () => {
  let database: TestDatabase;
  let auth: WebAuth;
  beforeAll(async () => {
    database = await openTestDatabase('sqlite');
    auth = createWebAuth({ db: database.db, argon2: cheapArgon2 });
    await auth.users.create({ username: 'mona', password: 'a long enough password', role: 'admin' });
  });
  afterAll(async () => database?.close());

  it('composes with the product variables, typed, without casts', async () => {
    const onError: AuthErrorWriter = (c, status, code) => c.json({ code }, status);
    const hosts = { port: 7676 };
    const chain: MiddlewareHandler<ProductEnv>[] = [
      hostAllowList({ ...hosts, onError }),
      originCheck({ hosts, onError }),
      loadSession({ auth, cookieName: 'workspaced_session' }),
      requireCsrf({ headerName: 'X-Workspaced-CSRF', onError }),
      requireSession({ onError }),
    ];
    const app = new Hono<ProductEnv>();
    app.use(async (c, next) => {
      c.set('requestId', 'req-42');
      await next();
    });
    app.use(...chain);
    app.post('/me', (c) => c.json({ requestId: c.get('requestId'), username: c.get('auth')?.user.username }));

    const signedIn = await auth.login({
      username: 'mona',
      password: 'a long enough password',
      client: '::1',
    });
    if (signedIn.kind !== 'ok') throw new Error(signedIn.kind);
    const cookie = serializeSessionCookie('workspaced_session', signedIn.token).split(';')[0]!;
    const response = await app.request('http://localhost:7676/me', {
      method: 'POST',
      headers: { cookie, 'x-workspaced-csrf': signedIn.csrf, origin: 'http://localhost:7676' },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ requestId: 'req-42', username: 'mona' });
  });
});
