/**
 * @module shields.io static badges by path, `/badge/<label>-<message>-<color>` (or
 * `<message>-<color>`), with shields' escaping (`--` is a dash, `__` an underscore, `_` a
 * space) and its `style`, `label`, `color`, `labelColor`, `logo` (a simple-icons slug) and
 * `logoColor` parameters. Our own `/badge?label=...` is untouched.
 */
import { renderBadge } from '../cards/badge.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { cachePolicyFor, lenient, lenientNumber, lenientText } from './lenient.js';
import { readShieldsColor } from './shields-colors.js';
import { readShieldsStyle } from './shields-styles.js';
import { findLogo, readLogoSlug } from './simple-icons-logos.js';

/** Longest badge path read (label, message and colour with their escapes). */
const maxPathLength = 600;

/** Splits on single dashes; `--` stays a dash. One pass, no regular expression. */
function splitOnSingleDashes(path: string): string[] {
  const parts: string[] = [];
  let current = '';
  for (let index = 0; index < path.length; index++) {
    const char = path[index];
    if (char === '-' && path[index + 1] === '-') {
      current += '-';
      index++;
    } else if (char === '-') {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}

/** `__` is an underscore, a single `_` a space. */
function unescapeUnderscores(text: string): string {
  let result = '';
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '_' && text[index + 1] === '_') {
      result += '_';
      index++;
    } else {
      result += text[index] === '_' ? ' ' : text[index];
    }
  }
  return result;
}

interface BadgePath {
  label: string;
  message: string;
  color: string;
}

/**
 * Reads `<label>-<message>-<color>` or `<message>-<color>` (already percent-decoded); with
 * more parts, the label keeps the extra dashes, as shields reads the colour and message from
 * the end.
 */
export function parseBadgePath(raw: string): BadgePath | undefined {
  // `/badge/License-MIT-yellow.svg`: shields accepts the extension.
  const path = raw.endsWith('.svg') ? raw.slice(0, -4) : raw;
  if (path.length === 0 || path.length > maxPathLength) return undefined;
  const parts = splitOnSingleDashes(path).map(unescapeUnderscores);
  if (parts.length < 2) return { label: '', message: parts[0] ?? '', color: '' };
  const color = parts.pop()!;
  const message = parts.pop()!;
  return { label: parts.join('-'), message, color };
}

/** The query parameter the route fills with the path after `/badge/`. */
export const badgePathParameter = 'path';

export const shieldsStaticBadge = defineEndpoint({
  path: '/badge/*',
  summary: 'shields.io drop-in: a static badge from its path.',
  cache: staticCardCache,
  pure: true,
  params: {
    [badgePathParameter]: lenient<BadgePath | null>(
      '<label>-<message>-<color>',
      parseBadgePath,
      null,
      maxPathLength,
    ),
    label: lenientText('Replaces the label of the path.', 100),
    color: lenient<string | null>('Message colour: a shields colour word or hex.', readShieldsColor, null),
    labelColor: lenient<string | null>('Label colour: a shields colour word or hex.', readShieldsColor, null),
    style: lenient('flat, flat-square, plastic, for-the-badge or social.', readShieldsStyle, 'flat'),
    logo: lenient('A simple-icons slug or title.', readLogoSlug, null),
    logoColor: lenient<string | null>('Logo colour: a shields colour word or hex.', readShieldsColor, null),
    // shields ignores values below its default lifetime; ours is a day.
    cacheSeconds: lenientNumber('Seconds caches keep the badge (a day to a year).', 86_400, 31_536_000),
  },
  async render({ path, label, color, labelColor, style, logo, logoColor, cacheSeconds }, { services }) {
    const badge = path ?? { label: '', message: 'badge', color: '' };
    const icon = logo === null ? undefined : await findLogo(logo, services.logos);
    const svg = renderBadge({
      label: label ?? badge.label,
      message: badge.message,
      color: color ?? readShieldsColor(badge.color) ?? '#4b0',
      labelColor: labelColor ?? undefined,
      style,
      animation: 'none',
      logo: icon ? { icon, color: logoColor ?? '#fff' } : undefined,
    });
    return { svg, cache: cachePolicyFor(cacheSeconds, staticCardCache) };
  },
});
