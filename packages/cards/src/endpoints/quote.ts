/**
 * @module GET /quote: a quotation with its author.
 */
import { quoteAlignments, renderQuote } from '../cards/quote.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { oneOf, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

export const quote = defineEndpoint({
  path: '/quote',
  summary: 'A quotation, wrapped to fit, with its author.',
  cache: staticCardCache,
  pure: true,
  params: {
    text: text({
      description: 'The quotation (wrapped, at most 8 lines).',
      max: 400,
      default: 'Talk is cheap. Show me the code.',
    }),
    author: text({ description: 'Who said it; empty: no author line.', max: 80, default: '' }),
    alignment: oneOf(quoteAlignments, { description: 'Text alignment.', default: 'center' }),
    theme: themeParam,
  },
  render: ({ text, author, alignment, theme }) =>
    renderQuote({ text, author, alignment, theme: getTheme(theme) }),
});
