/**
 * @module The profile views counter (komarev.com `ghpvc`): `/ghpvc/?username=...` with its
 * `label`, `color`, `style`, `base` and `abbreviated` parameters, counting in the same store
 * and under the same key as our `/visitors?username=...`.
 */
import { renderBadge } from '../cards/badge.js';
import { countVisit } from '../endpoints/visitors.js';
import { noStoreCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { requiredText } from '../params/index.js';
import { lenient, lenientFlag, lenientNumber, lenientText } from './lenient.js';
import { readShieldsColor } from './shields-colors.js';
import { readShieldsStyle } from './shields-styles.js';

const full = new Intl.NumberFormat('en-US');
const abbreviated = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

export const profileViewsCounter = defineEndpoint({
  path: '/ghpvc',
  summary: 'Profile views counter drop-in (komarev.com/ghpvc).',
  cache: noStoreCache,
  pure: false,
  params: {
    username: requiredText({ description: 'Key of the counter (the GitHub login).', max: 100 }),
    label: lenientText('Left-hand text.', 60),
    color: lenient<string | null>('Counter colour: a shields colour word or hex.', readShieldsColor, null),
    labelColor: lenient<string | null>('Label colour: a shields colour word or hex.', readShieldsColor, null),
    style: lenient('flat, flat-square, plastic, for-the-badge or pixel.', readShieldsStyle, 'flat'),
    base: lenientNumber('Added to the count (views before the switch).', 0, 1_000_000_000),
    abbreviated: lenientFlag('Write 12.3K instead of 12,345.', false),
  },
  async render(values, context) {
    const count = (await countVisit(values.username, context)) + (values.base ?? 0);
    return renderBadge({
      label: values.label ?? 'Profile views',
      message: (values.abbreviated ? abbreviated : full).format(count),
      color: values.color ?? '#007ec6',
      labelColor: values.labelColor ?? undefined,
      style: values.style,
      animation: 'none',
    });
  },
});
