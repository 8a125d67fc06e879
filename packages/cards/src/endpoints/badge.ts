/**
 * @module GET /badge: a shields.io-style static badge with optional animation.
 */
import { badgeAnimations, badgeStyles, renderBadge } from '../cards/badge.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { oneOf, text } from '../params/index.js';

const badgeColorNames = ['success', 'blue', 'error', 'warning', 'purple', 'gray'] as const;

/**
 * The spec's colour names as real colours: shields.io's where it has the name (success =
 * brightgreen, blue, error = critical red, warning = important orange); purple and a grey
 * that stays distinct from the #555 label.
 */
export const badgeColors: Record<(typeof badgeColorNames)[number], string> = {
  success: '#4b0',
  blue: '#007ec6',
  error: '#dd4343',
  warning: '#ea7233',
  purple: '#8957e5',
  gray: '#6e7681',
};

export const badge = defineEndpoint({
  path: '/badge',
  summary: 'A shields.io-compatible badge (label and message), optionally animated.',
  cache: staticCardCache,
  pure: true,
  params: {
    label: text({
      description: 'Left-hand text; empty gives a message-only badge.',
      max: 100,
      default: 'build',
    }),
    message: text({ description: 'Right-hand text.', max: 100, default: 'passing' }),
    color: oneOf(badgeColorNames, { description: 'Message background colour.', default: 'success' }),
    animation: oneOf(badgeAnimations, { description: 'Animation of the badge.', default: 'none' }),
    style: oneOf(badgeStyles, { description: 'Shape, as on shields.io.', default: 'flat' }),
  },
  render: ({ label, message, color, animation, style }) =>
    renderBadge({ label, message, color: badgeColors[color], animation, style }),
});
