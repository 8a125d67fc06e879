/**
 * @module Link buttons of an `embed-v2` announcement, checked once at construction: Discord rejects
 * the whole message (HTTP 400) on every vote when one button is invalid.
 */
import { BotlistsError } from '../errors.js';
import type { AnnounceLink } from './discord-payloads.js';

/** Discord limits (https://discord.com/developers/docs/components/reference#button). */
export const MAX_LINK_BUTTONS = 5;
const MAX_BUTTON_LABEL = 80;
const MAX_BUTTON_URL = 512;
const LINK_SCHEMES = new Set(['http:', 'https:', 'discord:']);

export function assertLinkButtons(links: readonly AnnounceLink[]): void {
  if (links.length > MAX_LINK_BUTTONS)
    throw new BotlistsError(
      `at most ${MAX_LINK_BUTTONS} links (Discord action row limit), got ${links.length}`,
    );
  links.forEach((link, index) => {
    const label = typeof link.label === 'string' ? link.label : '';
    if (label.trim().length === 0 || label.length > MAX_BUTTON_LABEL)
      throw new BotlistsError(
        `links[${index}]: label must be 1-${MAX_BUTTON_LABEL} characters (got ${label.length})`,
      );
    if (!hasLinkScheme(link.url) || link.url.length > MAX_BUTTON_URL)
      throw new BotlistsError(
        `links[${index}] "${label}": url must be an http, https or discord URL of at most ${MAX_BUTTON_URL} characters`,
      );
  });
}

function hasLinkScheme(url: unknown): boolean {
  if (typeof url !== 'string') return false;
  try {
    const parsed = new URL(url);
    return LINK_SCHEMES.has(parsed.protocol) && (parsed.protocol === 'discord:' || parsed.hostname !== '');
  } catch {
    return false;
  }
}
