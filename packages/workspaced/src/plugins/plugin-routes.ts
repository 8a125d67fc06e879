/**
 * @module `GET/POST /plugins` (list with `settings.view`; register a manifest with
 * `settings.manage`, always disabled) and `GET/PUT /plugins/{id}` (read; enable, disable or
 * replace the manifest, whose id must stay the path's). No plugin code is ever executed.
 */
import type { Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { readJson } from '../http/request-input.js';
import { pluginIdSchema, pluginManifestSchema, updatePluginSchema } from './plugin-manifest.js';
import { findPlugin, insertPlugin, listPlugins, pluginView, updatePlugin } from './plugin-store.js';

export function registerPluginRoutes(app: Hono<AppEnv>, { db }: DaemonContext): void {
  const readPlugin = async (id: string | undefined) => {
    const parsed = pluginIdSchema.safeParse(id);
    const row = parsed.success ? await findPlugin(db, parsed.data) : undefined;
    if (!row) throw notFound('plugin');
    return row;
  };

  app.get('/plugins', requirePermission('settings.view'), async (c) =>
    c.json({ plugins: (await listPlugins(db)).map(pluginView) }),
  );

  app.post('/plugins', requirePermission('settings.manage'), async (c) => {
    const manifest = await readJson(c, pluginManifestSchema);
    if (!(await insertPlugin(db, manifest, c.var.principal.id)))
      throw new ApiError(
        'PLUGIN_EXISTS',
        `plugin ${manifest.id} is registered; PUT /plugins/${manifest.id} updates it`,
      );
    return c.json(pluginView((await findPlugin(db, manifest.id))!), 201);
  });

  app.get('/plugins/:id', requirePermission('settings.view'), async (c) =>
    c.json(pluginView(await readPlugin(c.req.param('id')))),
  );

  app.put('/plugins/:id', requirePermission('settings.manage'), async (c) => {
    const row = await readPlugin(c.req.param('id'));
    const changes = await readJson(c, updatePluginSchema);
    if (changes.manifest && changes.manifest.id !== row.id)
      throw new ApiError('PLUGIN_ID_MISMATCH', 'the manifest id must be the plugin’s id');
    await updatePlugin(db, row.id, changes);
    return c.json(pluginView((await findPlugin(db, row.id))!));
  });
}
