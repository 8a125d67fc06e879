/**
 * @module `extension.yaml`: the spec's fields exactly (id, name, version, author, min_app,
 * capabilities, widgets of id/title/kind/size/source/query/refresh_seconds), validated by one
 * strict zod schema; problems are reported with their key path, as the config loader does.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { formatIssues } from '../config/load-config.js';
import { isForbidden, isGrantable } from './capabilities.js';
import { ExtensionError } from './extension-error.js';
import { findUnsafeString } from './unsafe-characters.js';
import { builtinMetricNames, builtinMetrics, isLoopbackUrlSyntax } from './widget-sources.js';

/** A manifest is a few hundred bytes; anything this big is refused before parsing. */
const maxManifestBytes = 64 * 1024;

const identifier = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{1,62}$/, 'lower-case letters, digits and -, 2-63 characters');
const label = z.string().trim().min(1).max(100);
const version = z
  .string()
  .refine((text) => semver.valid(text) === text, 'must be a semantic version (1.2.3)');

const widgetCommon = {
  id: identifier,
  title: label,
  kind: z.enum(['metric', 'gauge', 'table', 'status']),
  size: z.enum(['small', 'medium', 'wide']),
  /** At least 5 s so a dashboard left open does not hammer the source. */
  refresh_seconds: z.number().int().min(5).max(86_400),
};

const loopbackUrl = z
  .string()
  .max(2_048)
  .refine(isLoopbackUrlSyntax, 'must be an http(s) URL on a loopback host (127.0.0.1, [::1], localhost)');

const widgetSchema = z.discriminatedUnion('source', [
  z
    .object({
      ...widgetCommon,
      source: z.literal('http.local'),
      query: z.object({ url: loopbackUrl }).strict(),
    })
    .strict(),
  z
    .object({
      ...widgetCommon,
      source: z.literal('firewarden'),
      query: z.object({ metric: z.enum(builtinMetricNames) }).strict(),
    })
    .strict(),
]);

const manifestSchema = z
  .object({
    id: identifier,
    name: label,
    version,
    author: label,
    min_app: version,
    capabilities: z.array(z.string().min(1).max(64)).max(16).default([]),
    widgets: z.array(widgetSchema).max(32).default([]),
  })
  .strict()
  .superRefine((manifest, context) => {
    manifest.capabilities.forEach((capability, index) => {
      const at = ['capabilities', index];
      if (isForbidden(capability))
        context.addIssue({ code: 'custom', path: at, message: `${capability} can never be granted` });
      else if (!isGrantable(capability))
        context.addIssue({ code: 'custom', path: at, message: `unknown capability ${capability}` });
      if (manifest.capabilities.indexOf(capability) !== index)
        context.addIssue({ code: 'custom', path: at, message: `${capability} is listed twice` });
    });
    manifest.widgets.forEach((widget, index) => {
      if (manifest.widgets.findIndex((other) => other.id === widget.id) !== index)
        context.addIssue({
          code: 'custom',
          path: ['widgets', index, 'id'],
          message: `${widget.id} is used twice`,
        });
      for (const needed of widgetCapabilities(widget)) {
        if (!manifest.capabilities.includes(needed))
          context.addIssue({
            code: 'custom',
            path: ['widgets', index, 'source'],
            message: `needs capability ${needed} in capabilities`,
          });
      }
    });
  });

export type Manifest = z.output<typeof manifestSchema>;
export type Widget = Manifest['widgets'][number];

/** The capabilities that must be granted before a widget's data is served. */
export function widgetCapabilities(widget: Widget): string[] {
  if (widget.source === 'http.local') return ['dashboard.widget'];
  return ['dashboard.widget', ...builtinMetrics[widget.query.metric].capabilities];
}

interface LoadedManifest {
  manifest: Manifest;
  /** The file's bytes as read, so the store keeps what was reviewed. */
  text: string;
}

/** Reads `<dir>/extension.yaml`; every problem is an `ExtensionError` naming the file and key path. */
export function loadManifest(dir: string): LoadedManifest {
  const file = path.join(dir, 'extension.yaml');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ExtensionError(
      'EXTENSION_INVALID',
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  if (Buffer.byteLength(text) > maxManifestBytes) {
    throw new ExtensionError('EXTENSION_INVALID', `${file}: larger than ${maxManifestBytes} bytes`);
  }
  return { manifest: parseManifest(text, file, { refuseUnsafeCharacters: true }), text };
}

interface ParseOptions {
  /**
   * Refuse control and bidi characters in every key and string (at install). Manifests stored
   * before this was refused are still read; the CLI escapes what it prints of them.
   */
  refuseUnsafeCharacters?: boolean;
}

export function parseManifest(text: string, where: string, options: ParseOptions = {}): Manifest {
  let raw: unknown;
  try {
    raw = parseYaml(text, { maxAliasCount: 20 });
  } catch (error) {
    throw new ExtensionError(
      'EXTENSION_INVALID',
      `${where}: not valid YAML: ${(error as Error).message.split('\n')[0]}`,
    );
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new ExtensionError('EXTENSION_INVALID', `${where}: (root): expected a mapping of fields`);
  }
  const unsafe = options.refuseUnsafeCharacters ? findUnsafeString(raw) : null;
  if (unsafe) {
    throw new ExtensionError(
      'EXTENSION_INVALID',
      `${where}: ${unsafe.path}: holds the control or bidi character ${unsafe.character}, which a manifest may not contain`,
    );
  }
  const result = manifestSchema.safeParse(raw);
  if (!result.success)
    throw new ExtensionError('EXTENSION_INVALID', `${where}: ${formatIssues(result.error)}`);
  return result.data;
}
