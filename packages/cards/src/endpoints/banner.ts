/**
 * @module GET /banner: a wide header for the top of a README.
 */
import { bannerAlignments, bannerPatterns, renderBanner } from '../cards/banner.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { oneOf, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

export const banner = defineEndpoint({
  path: '/banner',
  summary: 'An 800 px wide header with title, subtitle and a background pattern.',
  cache: staticCardCache,
  pure: true,
  params: {
    title: text({
      description: 'Headline (shrinks to fit, then wraps).',
      max: 100,
      default: 'Hello, I am a developer',
    }),
    subtitle: text({ description: 'Line under the title; empty: none.', max: 200, default: '' }),
    pattern: oneOf(bannerPatterns, { description: 'Background pattern.', default: 'dots' }),
    alignment: oneOf(bannerAlignments, { description: 'Text alignment.', default: 'center' }),
    theme: themeParam,
  },
  render: ({ title, subtitle, pattern, alignment, theme }) =>
    renderBanner({ title, subtitle, pattern, alignment, theme: getTheme(theme) }),
});
