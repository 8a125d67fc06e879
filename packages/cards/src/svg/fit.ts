/**
 * @module One line of text fitted to a width: kept whole when it fits, otherwise cut between
 * characters and ended with an ellipsis, so a text never runs into its neighbour on the row.
 */
import { type MeasureOptions, measureText } from './measure.js';

const ellipsis = '…';

/**
 * `text` when it is at most `maxWidth` px wide in `options`' font, else its longest prefix
 * (trailing spaces dropped) followed by `…` that is; `…` alone when nothing else fits, and
 * an empty string when not even that does.
 *
 * @example fitText('pushed 1 commit to main in ada/pixel-garden', { maxWidth: 180, size: 12, bold: true })
 */
export function fitText(text: string, options: MeasureOptions & { maxWidth: number }): string {
  if (measureText(text, options) <= options.maxWidth) return text;
  const budget = options.maxWidth - measureText(ellipsis, options);
  if (budget < 0) return '';
  let kept = '';
  let width = 0;
  for (const char of text) {
    width += measureText(char, options);
    if (width > budget) break;
    kept += char;
  }
  return `${kept.trimEnd()}${ellipsis}`;
}
