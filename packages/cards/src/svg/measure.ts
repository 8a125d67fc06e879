/**
 * @module Text width from real Verdana metrics (anafanafo's tables, the ones shields.io uses).
 */
import { type VerdanaTable, verdanaWidth } from './verdana-widths.js';

/**
 * The font stack every card draws with: Verdana where installed, then fonts with matching
 * metrics (Geneva, DejaVu Sans), so the measured width is the drawn width.
 */
export const fontFamily = 'Verdana,Geneva,DejaVu Sans,sans-serif';

export interface MeasureOptions {
  /** Font size in px; default 11. */
  size?: number;
  bold?: boolean;
}

/** Size in px of each metric table anafanafo ships. */
const tableSize: Record<VerdanaTable, number> = {
  '10px Verdana': 10,
  'bold 10px Verdana': 10,
  '11px Verdana': 11,
};

const charWidths = new Map<VerdanaTable, Map<number, number>>();

/** Wide scripts (CJK, Hangul, full-width forms) and emoji are one em wide in every font stack. */
function isWideCodePoint(code: number): boolean {
  return (
    (code >= 0x1100 && code <= 0x115f) ||
    (code >= 0x2e80 && code <= 0xa4cf) ||
    (code >= 0xac00 && code <= 0xd7a3) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xfe30 && code <= 0xfe4f) ||
    (code >= 0xff00 && code <= 0xff60) ||
    (code >= 0xffe0 && code <= 0xffe6) ||
    (code >= 0x1f300 && code <= 0x1faff) ||
    (code >= 0x20000 && code <= 0x3fffd)
  );
}

/**
 * Width in px of `text` in one of anafanafo's exact tables (memoised per character; the
 * tables have no kerning, so the sum of characters is the table's own answer).
 */
export function widthInFont(text: string, font: VerdanaTable): number {
  let table = charWidths.get(font);
  if (!table) {
    table = new Map();
    charWidths.set(font, table);
  }
  let total = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    let width = table.get(code);
    if (width === undefined) {
      width = isWideCodePoint(code) ? tableSize[font] : verdanaWidth(code, font);
      table.set(code, width);
    }
    total += width;
  }
  return total;
}

/**
 * Width in px of `text` drawn in Verdana at `size` px (tables scaled linearly).
 *
 * @example measureText('passing') // 41.75, as shields.io measures it
 */
export function measureText(text: string, options: MeasureOptions = {}): number {
  const size = options.size ?? 11;
  if (options.bold) return widthInFont(text, 'bold 10px Verdana') * (size / 10);
  if (size === 10) return widthInFont(text, '10px Verdana');
  return widthInFont(text, '11px Verdana') * (size / 11);
}
