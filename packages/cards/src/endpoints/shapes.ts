/**
 * @module GET /svg: decorative pieces (divider, status pill, pill, callout card).
 */
import { renderShape, shapeTypes } from '../cards/shapes.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { oneOf, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

export const shapes = defineEndpoint({
  path: '/svg',
  summary: 'Dividers, status pills, pills and callout cards.',
  cache: staticCardCache,
  pure: true,
  params: {
    type: oneOf(shapeTypes, { description: 'What to draw.', default: 'divider' }),
    text: text({
      description: 'Text; empty: the type default (none for a divider, "Available for work", "New", a tip).',
      max: 300,
      default: '',
    }),
    theme: themeParam,
  },
  render: ({ type, text, theme }) => renderShape({ type, text, theme: getTheme(theme) }),
});
