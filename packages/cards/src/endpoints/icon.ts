/**
 * @module GET /icon: one platform logo (or a website/email symbol) on a themed tile.
 */
import { platformAliases, platformIcons, platformNames, resolvePlatform } from '../brands/platforms.js';
import { renderIcon } from '../cards/icon.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { customParam, number, shown, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

const nameParam = customParam(
  {
    kind: 'enum',
    required: false,
    values: platformNames,
    default: 'github',
    description: `Platform (aliases: ${Object.keys(platformAliases).join(', ')}; case-insensitive).`,
  },
  (raw) =>
    resolvePlatform(raw) ?? { error: `must be one of: ${platformNames.join(', ')} (got ${shown(raw)})` },
  'github' as const,
);

export const icon = defineEndpoint({
  path: '/icon',
  summary: 'A platform logo on a rounded tile.',
  cache: staticCardCache,
  pure: true,
  params: {
    name: nameParam,
    size: number({ description: 'Width and height in px.', min: 16, max: 64, default: 32 }),
    radius: number({
      description: 'Corner radius in px (capped at half the size).',
      min: 0,
      max: 32,
      default: 8,
    }),
    theme: themeParam,
  },
  render: ({ name, size, radius, theme }) =>
    renderIcon({ icon: platformIcons[name], size, radius, theme: getTheme(theme) }),
});
