/**
 * @module Extensions over the API: list and read them (any signed-in user: the dashboard shows
 * their widgets), grant and revoke one capability (admin, CSRF, audited), and a widget's data,
 * read by the server from the widget's declared source only when its capabilities are granted.
 * Installing and removing stay CLI-only (`firewarden extension install`), which needs host rights.
 */
import type { Context } from 'hono';
import { z } from 'zod';
import { ExtensionError } from '../../extensions/extension-error.js';
import { createExtensionStore, type InstalledExtension } from '../../extensions/extension-store.js';
import { widgetData } from '../../extensions/widget-data.js';
import type { Services } from '../../server/services.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';

const grantBody = z.strictObject({ capability: z.string().min(1).max(64) });

/** Runs a store call; its errors become the envelope's codes (same names). */
async function answer<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ExtensionError) throw new ApiError(error.code, error.message);
    throw error;
  }
}

/** A path parameter (always present once the route matched). */
const param = (c: Context<AppEnv>, name: string) => c.req.param(name) ?? '';

function view(extension: InstalledExtension) {
  return {
    ...extension.manifest,
    manifest_sha256: extension.manifest_sha256,
    installed_at: extension.installed_at,
    installed_by: extension.installed_by,
    grants: extension.grants,
  };
}

export function registerExtensionRoutes(defineRoute: DefineRoute, services: Services): void {
  const store = createExtensionStore(services.db, services.clock);

  const audit = (c: Context<AppEnv>, action: string, id: string, capability: string, changed: boolean) => {
    c.set('audited', true);
    return services.auth().audit.append({
      actor: c.get('auth')!.user.username,
      action,
      target: id,
      outcome: 'success',
      requestId: c.get('requestId'),
      client: c.get('clientAddress'),
      detail: { capability, changed },
    });
  };

  defineRoute('/api/v1/extensions', {
    GET: [
      requirePermission('extensions.read'),
      async (c) => ok(c, { extensions: (await answer(() => store.list())).map(view) }),
    ],
  });

  defineRoute('/api/v1/extensions/:id', {
    GET: [
      requirePermission('extensions.read'),
      async (c) => ok(c, view(await answer(() => store.get(param(c, 'id'))))),
    ],
  });

  defineRoute('/api/v1/extensions/:id/grants', {
    POST: [
      requirePermission('extensions.manage'),
      async (c) => {
        const id = param(c, 'id');
        const { capability } = await readJsonBody(c, grantBody, services.config.server.max_body_bytes);
        const changed = await answer(() => store.grant(id, capability, c.get('auth')!.user.username));
        await audit(c, 'extensions.grant', id, capability, changed);
        return ok(c, view(await answer(() => store.get(id))));
      },
    ],
  });

  defineRoute('/api/v1/extensions/:id/grants/:capability', {
    DELETE: [
      requirePermission('extensions.manage'),
      async (c) => {
        const [id, capability] = [param(c, 'id'), param(c, 'capability')];
        const changed = await answer(() => store.revoke(id, capability));
        await audit(c, 'extensions.revoke', id, capability, changed);
        return ok(c, view(await answer(() => store.get(id))));
      },
    ],
  });

  defineRoute('/api/v1/extensions/:id/widgets/:widget/data', {
    GET: [
      requirePermission('extensions.read'),
      async (c) => {
        const [id, widget] = [param(c, 'id'), param(c, 'widget')];
        const extension = await answer(() => store.get(id));
        const data = await answer(() =>
          widgetData(extension, widget, {
            db: services.db,
            startedAt: services.startedAt,
            now: services.clock,
          }),
        );
        return ok(c, data);
      },
    ],
  });
}
