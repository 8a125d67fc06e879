/**
 * @module GET /visitors: a persistent visit counter drawn as a badge; every request counts.
 */
import { badgeStyles, renderBadge } from '../cards/badge.js';
import { noStoreCache } from '../http/cache-control.js';
import { CardError } from '../http/card-error.js';
import { defineEndpoint, type RenderContext } from '../http/endpoint.js';
import { isGithubImageProxy } from '../http/image-proxy.js';
import { customParam, oneOf, requiredText, shown, text } from '../params/index.js';
import { VisitorLimitError } from '../store/bounded-visitor-store.js';
import { VisitorBudgetError } from '../store/visitor-store.js';

const visitorColors = ['#3b82f6', '#22c55e', '#a855f7', '#ef4444', '#525252'] as const;

/**
 * `color`: one of the spec's five colours. `#` starts the fragment of a URL, so a browser never
 * sends a raw one: the encoded `%233b82f6` and the bare `3b82f6` are both accepted.
 */
const colorParam = customParam<(typeof visitorColors)[number]>(
  {
    kind: 'enum',
    required: false,
    values: visitorColors,
    default: '#3b82f6',
    description: 'Counter colour (write `%23` for `#`, or leave the `#` out).',
  },
  (raw) => {
    const color = (raw.startsWith('#') ? raw : `#${raw}`).toLowerCase();
    return (visitorColors as readonly string[]).includes(color)
      ? (color as (typeof visitorColors)[number])
      : { error: `must be one of: ${visitorColors.join(', ')} (got ${shown(raw)})` };
  },
  '#3b82f6',
);

const counterFormat = new Intl.NumberFormat('en-US');

/** When a client should retry after the store failed (a restart or failover takes seconds). */
const storeRetrySeconds = 30;
/** When to retry a new counter refused by a full store (the retention rule frees room hourly). */
const fullStoreRetrySeconds = 3_600;

/**
 * Counts one visit of `key` and returns the new count (HEAD only reads it: link checkers ask
 * about the image without viewing it); a failing or full store gives a 503 card. GitHub's image
 * proxy carries every reader of every README, so it is never limited per client: only the
 * store's global budget bounds it.
 */
export async function countVisit(key: string, { services, request }: RenderContext): Promise<number> {
  const visit =
    request.method === 'HEAD'
      ? services.visitors.peek(key)
      : services.visitors.increment(key, isGithubImageProxy(request) ? undefined : services.client);
  return visit.catch((error: unknown) => {
    if (error instanceof VisitorLimitError)
      throw new CardError(error.status, error.message, { retryAfterSeconds: error.retryAfterSeconds });
    if (error instanceof VisitorBudgetError)
      throw new CardError(503, error.message, { retryAfterSeconds: fullStoreRetrySeconds });
    services.logger?.error({ err: error }, 'visitor store failed');
    throw new CardError(503, 'The visitor counter is unavailable right now; try again shortly.', {
      retryAfterSeconds: storeRetrySeconds,
      cause: error,
    });
  });
}

export const visitors = defineEndpoint({
  path: '/visitors',
  summary: 'A visit counter: every load adds one, persisted per username.',
  cache: noStoreCache,
  pure: false,
  params: {
    username: requiredText({ description: 'Key of the counter (usually your GitHub login).', max: 100 }),
    label: text({ description: 'Left-hand text.', max: 60, default: 'visitors' }),
    color: colorParam,
    style: oneOf(badgeStyles, { description: 'Shape, as on shields.io.', default: 'flat' }),
  },
  async render({ username, label, color, style }, context) {
    const count = await countVisit(username, context);
    return renderBadge({ label, message: counterFormat.format(count), color, style, animation: 'none' });
  },
});
