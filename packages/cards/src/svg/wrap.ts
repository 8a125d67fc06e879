/**
 * @module Line breaking by measured width (words first, characters for words too long).
 */
import { fitText } from './fit.js';
import { type MeasureOptions, measureText } from './measure.js';

export interface WrapOptions extends MeasureOptions {
  /** Maximum line width in px. */
  maxWidth: number;
  /** Lines kept; the last one ends with an ellipsis when text was cut. Default unlimited. */
  maxLines?: number;
}

function breakLongWord(word: string, options: WrapOptions): string[] {
  const pieces: string[] = [];
  let current = '';
  for (const char of word) {
    if (current && measureText(current + char, options) > options.maxWidth) {
      pieces.push(current);
      current = char;
    } else {
      current += char;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/**
 * Splits `text` into lines no wider than `maxWidth`, breaking at spaces and, for a single
 * word wider than a line, between characters.
 *
 * @example wrapText('a long quote', { maxWidth: 40, size: 11 })
 */
export function wrapText(text: string, options: WrapOptions): string[] {
  const lines: string[] = [];
  let current = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const candidate = current ? `${current} ${word}` : word;
    if (measureText(candidate, options) <= options.maxWidth) {
      current = candidate;
      continue;
    }
    if (current) lines.push(current);
    if (measureText(word, options) <= options.maxWidth) {
      current = word;
    } else {
      const pieces = breakLongWord(word, options);
      lines.push(...pieces.slice(0, -1));
      current = pieces.at(-1) ?? '';
    }
  }
  if (current) lines.push(current);
  const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  // The last line kept says that text follows, even when it fits the width as it is.
  kept[maxLines - 1] = fitText(`${kept[maxLines - 1]!}…`, options);
  return kept;
}
