/**
 * @module The data behind one widget, read by the server from the widget's declared source and
 * only when every capability it needs is granted. Nothing the extension ships is executed.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { appVersion } from '../version.js';
import { ExtensionError } from './extension-error.js';
import type { InstalledExtension } from './extension-store.js';
import { fetchHttpLocal, type HttpLocalLimits } from './http-local-source.js';
import { type Widget, widgetCapabilities } from './manifest.js';
import type { BuiltinMetric } from './widget-sources.js';

interface WidgetDataContext {
  db: Kysely<Database>;
  startedAt: number;
  now: () => number;
  httpLocalLimits?: HttpLocalLimits;
}

interface WidgetData {
  extension_id: string;
  widget_id: string;
  kind: Widget['kind'];
  refresh_seconds: number;
  fetched_at: string;
  data: unknown;
}

export async function widgetData(
  extension: InstalledExtension,
  widgetId: string,
  context: WidgetDataContext,
): Promise<WidgetData> {
  const widget = extension.manifest.widgets.find((candidate) => candidate.id === widgetId);
  if (!widget) throw new ExtensionError('EXTENSION_NOT_FOUND', `${extension.id} has no widget ${widgetId}`);
  const granted = new Set(extension.grants.map((grant) => grant.capability));
  const missing = widgetCapabilities(widget).filter((capability) => !granted.has(capability));
  if (missing.length > 0) {
    throw new ExtensionError(
      'EXTENSION_CAPABILITY_DENIED',
      `an admin has not granted ${missing.join(', ')} to ${extension.id}`,
    );
  }
  const data =
    widget.source === 'http.local'
      ? await fetchHttpLocal(widget.query.url, context.httpLocalLimits)
      : await builtinMetric(widget.query.metric, context);
  return {
    extension_id: extension.id,
    widget_id: widget.id,
    kind: widget.kind,
    refresh_seconds: widget.refresh_seconds,
    fetched_at: new Date(context.now()).toISOString(),
    data,
  };
}

async function builtinMetric(metric: BuiltinMetric, context: WidgetDataContext): Promise<unknown> {
  const count = async (table: 'notifications' | 'extensions') => {
    const row = await context.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  switch (metric) {
    case 'app.version':
      return { value: appVersion };
    case 'app.uptime_seconds':
      return { value: Math.floor((context.now() - context.startedAt) / 1_000) };
    case 'notifications.count':
      return { value: await count('notifications') };
    case 'extensions.count':
      return { value: await count('extensions') };
  }
}
