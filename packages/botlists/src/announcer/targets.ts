/**
 * @module Announcement targets: which URLs are Discord webhooks, which are external HTTPS endpoints.
 */
import { BotlistsError } from '../errors.js';

/** Discord execute-webhook URLs on every API host and version. */
const DISCORD_WEBHOOK =
  /^https:\/\/(canary\.|ptb\.)?(discord\.com|discordapp\.com)\/api(\/v\d+)?\/webhooks\/\d+\/[\w-]+/;
/** Same path shape on loopback (local relays and tests may use plain HTTP there). */
const LOOPBACK_WEBHOOK =
  /^https?:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?(\/[\w.-]+)*\/api(\/v\d+)?\/webhooks\/\d+\/[\w-]+/;

function isLoopback(url: URL): boolean {
  return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

export function assertDiscordWebhook(url: string): string {
  if (DISCORD_WEBHOOK.test(url) || LOOPBACK_WEBHOOK.test(url)) return url;
  throw new BotlistsError(`not a Discord webhook URL: ${url.replace(/\/webhooks\/.*/, '/webhooks/…')}`);
}

/** External targets must be HTTPS (plain HTTP only on loopback): votes carry user ids. */
export function assertExternalTarget(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new BotlistsError(`invalid external target URL: ${url}`);
  }
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopback(parsed))) return url;
  throw new BotlistsError(`external targets must use https: ${parsed.origin}`);
}

/** Adds `with_components=true`, without which Discord ignores components sent through a webhook. */
export function withComponentsUrl(url: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('with_components', 'true');
  return parsed.href;
}

/** A URL safe for logs and events: the webhook token is replaced. */
export function redactTarget(url: string): string {
  return url.replace(/(\/webhooks\/\d+\/)[\w-]+/, '$1***');
}
