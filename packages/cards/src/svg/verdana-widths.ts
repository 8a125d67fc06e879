/**
 * @module The character width tables shields.io measures with (anafanafo's data), read here
 * without anafanafo's loader: that loader requires `fs`, which edge runtimes do not have.
 */
import bold10 from 'anafanafo/data/verdana-10px-bold.json' with { type: 'json' };
import normal10 from 'anafanafo/data/verdana-10px-normal.json' with { type: 'json' };
import normal11 from 'anafanafo/data/verdana-11px-normal.json' with { type: 'json' };

/** `[first code point, last code point, width in px]`, sorted and disjoint. */
type WidthRanges = readonly (readonly number[])[];

export type VerdanaTable = '10px Verdana' | 'bold 10px Verdana' | '11px Verdana';

const tables: Record<VerdanaTable, WidthRanges> = {
  '10px Verdana': normal10,
  'bold 10px Verdana': bold10,
  '11px Verdana': normal11,
};

/** Width of `code` in `table`, or undefined when the table has no range for it. */
function lookup(table: WidthRanges, code: number): number | undefined {
  let low = 0;
  let high = table.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const [first = 0, last = 0, width] = table[middle]!;
    if (code < first) high = middle - 1;
    else if (code > last) low = middle + 1;
    else return width;
  }
  return undefined;
}

const emWidths = new Map<VerdanaTable, number>();

/**
 * Width in px of one code point, as anafanafo answers it: control characters are 0 wide and a
 * character missing from the table counts as the width of "m".
 */
export function verdanaWidth(code: number, font: VerdanaTable): number {
  if (code <= 31 || code === 127) return 0;
  const table = tables[font];
  const width = lookup(table, code);
  if (width !== undefined) return width;
  let em = emWidths.get(font);
  if (em === undefined) {
    em = lookup(table, 'm'.codePointAt(0)!) ?? 0;
    emWidths.set(font, em);
  }
  return em;
}
