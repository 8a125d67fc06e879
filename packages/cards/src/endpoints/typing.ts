/**
 * @module GET /typing: lines typed and erased in turn, with a blinking cursor.
 */
import { renderTyping } from '../cards/typing.js';
import { withDialect } from '../compat/dialect.js';
import { typingSvgCard } from '../compat/typing-svg.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { customParam, number, splitList, text, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

const maxLines = 10;
const maxLineLength = 120;

/** `lines`: `;`-separated; blank entries are dropped; at most 10 lines of 120 characters. */
const linesParam = customParam<string[]>(
  {
    kind: 'string',
    required: false,
    default: 'Hello, world!;I write TypeScript',
    max: maxLines * (maxLineLength + 1),
    description: `Lines separated by \`;\` (up to ${maxLines} lines of ${maxLineLength} characters).`,
  },
  (raw) => {
    const lines = splitList(raw, ';', maxLines, 'line');
    if ('error' in lines) return lines;
    const tooLong = lines.findIndex((line) => Array.from(line).length > maxLineLength);
    if (tooLong >= 0) return { error: `line ${tooLong + 1} must be at most ${maxLineLength} characters` };
    return lines;
  },
  ['Hello, world!', 'I write TypeScript'],
);

const ourTyping = defineEndpoint({
  path: '/typing',
  summary: 'Lines typed one after another, each on its own row, with a blinking cursor.',
  cache: staticCardCache,
  pure: true,
  params: {
    lines: linesParam,
    theme: themeParam,
    fontSize: number({ description: 'Font size in px.', min: 12, max: 48, default: 20 }),
    cursor: text({ description: 'Cursor character(s).', max: 3, default: '|' }),
  },
  render: ({ lines, theme, fontSize, cursor }) =>
    renderTyping({ lines, fontSize, cursor, theme: getTheme(theme) }),
});

/**
 * Also readme-typing-svg's URLs (`/typing?lines=...&font=...&center=true`); its `lines` take
 * longer text than ours, so a query of `lines` alone that ours refuses is read as theirs.
 */
export const typing = withDialect(ourTyping, { endpoint: typingSvgCard, widerNames: ['lines'] });
