/**
 * @module GET /text: a short text with one of nine CSS animations.
 */
import { renderAnimatedText, textAnimations } from '../cards/animated-text.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { number, oneOf, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

export const animatedText = defineEndpoint({
  path: '/text',
  summary:
    'A short text animated with CSS (fade, slide, bounce, wave, pulse, glitch, blur-in, reveal, typewriter).',
  cache: staticCardCache,
  pure: true,
  params: {
    text: text({ description: 'The text (wrapped to at most 3 lines).', max: 120, default: 'Hello, world!' }),
    animation: oneOf(textAnimations, { description: 'The animation.', default: 'fade' }),
    duration: number({
      description: 'Length of one animation cycle in seconds (fractions allowed).',
      min: 1,
      max: 20,
      default: 3,
      fractional: true,
    }),
    theme: themeParam,
  },
  render: ({ text, animation, duration, theme }) =>
    renderAnimatedText({ text, animation, duration, theme: getTheme(theme) }),
});
