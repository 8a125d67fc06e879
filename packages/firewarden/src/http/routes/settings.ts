/**
 * @module `GET /api/v1/settings` (effective run-time settings and which are locked by the
 * environment) and `PUT /api/v1/settings` (any subset, validated as a whole, audited with the
 * old and new values).
 */
import type { Services } from '../../server/services.js';
import { flattenPatch, settingsPatchSchema } from '../../settings/editable-settings.js';
import { ApiError } from '../api-error.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';

export function registerSettingsRoutes(defineRoute: DefineRoute, services: Services): void {
  const view = () => ({ settings: services.settings.current(), locked: services.settings.locked() });

  defineRoute('/api/v1/settings', {
    GET: [requirePermission('settings.read'), async (c) => ok(c, view())],
    PUT: [
      requirePermission('settings.write'),
      async (c) => {
        const patch = await readJsonBody(c, settingsPatchSchema, services.config.server.max_body_bytes);
        const pairs = flattenPatch(patch);
        const locked = pairs.filter(([key]) => services.settings.locked().includes(key)).map(([key]) => key);
        if (locked.length > 0) {
          throw new ApiError('SETTING_LOCKED', 'set by a FIREWARDEN_* environment variable', {
            keys: locked,
          });
        }
        const actor = c.get('auth')!.user.username;
        const changes = await services.settings.update(pairs, actor);
        await services.auth().audit.append({
          actor,
          action: 'settings.update',
          target: 'settings',
          outcome: 'success',
          requestId: c.get('requestId'),
          client: c.get('clientAddress'),
          detail: {
            changes: changes.map(({ key, from, to }) => ({ key, from: from as never, to: to as never })),
          },
        });
        c.set('audited', true);
        return ok(c, { ...view(), changed: changes.map(({ key }) => key) });
      },
    ],
  });
}
