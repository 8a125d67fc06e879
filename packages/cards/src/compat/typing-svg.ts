/**
 * @module readme-typing-svg drop-in: `/typing?lines=...` (the old service answered at the root
 * of its host) with `font`, `size`, `color`, `background`, `center`, `vCenter`, `width`,
 * `height`, `multiline`, `duration`, `pause`, `repeat`, `separator`, `letterSpacing`, `weight`
 * and `random`. Its
 * defaults are kept: a 400x50 transparent box, one line at a time, 5 s per line.
 */
import { renderTyping } from '../cards/typing.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { fontFamily } from '../svg/measure.js';
import { getTheme } from '../themes/index.js';
import { lenient, lenientColor, lenientFlag, lenientNumber, lenientText, readList } from './lenient.js';
import { themeWith } from './palette.js';

const maxLines = 10;
/** How long a finished line stays before the next (their erase animation takes about as long). */
const eraseSeconds = 1;
/** Their default text. */
const defaultLine = 'The five boxing wizards jump quickly';
const maxLineLength = 120;
const fontNamePattern = /^[A-Za-z0-9 ]{1,40}$/;
const lengthPattern = /^(-?\d{1,3}(\.\d{1,3})?)(px|em)?$/;

/** Font names of the monospaced families (their default is `monospace`): Fira Code, JetBrains Mono... */
const monospacedName = /mono|code|courier|consol|terminal|typewriter/i;

/**
 * `font`: the named family first, then a fallback of its kind, so a viewer without it still
 * sees a monospaced (or sans-serif) face. Characters are placed one by one at measured
 * positions, so a fallback face changes glyphs, never the layout.
 */
function fontStack(name: string): string {
  const fallback = monospacedName.test(name)
    ? 'ui-monospace,SFMono-Regular,Menlo,Consolas,DejaVu Sans Mono,monospace'
    : fontFamily;
  return `'${name}',${fallback}`;
}

/** A 32-bit FNV-1a hash of `text`: the seed of `random`'s order. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0;
  }
  return hash;
}

/**
 * `random=true`: the lines in a shuffled order. The order is drawn from the lines themselves
 * (a seeded Fisher-Yates), so one URL always gives the same card (cacheable, same ETag) while
 * different texts get different orders.
 */
function shuffledLines(lines: readonly string[]): string[] {
  const shuffled = [...lines];
  let state = hashOf(lines.join('\n')) || 1;
  for (let index = shuffled.length - 1; index > 0; index -= 1) {
    // xorshift32: small, and enough to pick an order.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    const other = (state >>> 0) % (index + 1);
    [shuffled[index], shuffled[other]] = [shuffled[other]!, shuffled[index]!];
  }
  return shuffled;
}

/** `10px`, `0.2em` or `3` -> px for the font size; `normal` and others: ignored. */
function letterSpacingPx(raw: string, fontSize: number): number | undefined {
  const match = lengthPattern.exec(raw);
  if (!match) return undefined;
  const value = Number(match[1]) * (match[3] === 'em' ? fontSize : 1);
  return Math.min(50, Math.max(-5, value));
}

export const typingSvgCard = defineEndpoint({
  path: '/typing',
  summary: 'readme-typing-svg drop-in.',
  cache: staticCardCache,
  pure: true,
  params: {
    lines: lenientText('Lines split on `separator`.', maxLines * (maxLineLength + 3)),
    separator: lenientText('Line separator; default `;`.', 3),
    font: lenient<string | null>(
      'Font family (shown where the viewer has it).',
      (raw) => (fontNamePattern.test(raw) ? raw : undefined),
      null,
    ),
    weight: lenientNumber('Font weight, 100-900.', 100, 900),
    random: lenientFlag('Lines in a shuffled order (the same order for the same URL).', false),
    size: lenientNumber('Font size, px.', 10, 100),
    color: lenientColor('Text colour.'),
    background: lenientColor('Background colour.'),
    center: lenientFlag('Centre across.', false),
    vCenter: lenientFlag('Centre down.', false),
    width: lenientNumber('Width, px.', 50, 2000),
    height: lenientNumber('Height, px.', 20, 1000),
    multiline: lenientFlag('Each line on its own row.', false),
    duration: lenientNumber('Milliseconds to type one line.', 100, 60_000),
    pause: lenientNumber('Milliseconds between lines.', 0, 60_000),
    repeat: lenientFlag('Repeat the cycle.', true),
    letterSpacing: lenientText('Space between letters (`10px`, `0.1em`).', 12),
  },
  render: (values) => {
    const fontSize = values.size ?? 20;
    const given = readList(values.lines ?? defaultLine, maxLines, values.separator ?? ';').map((line) =>
      Array.from(line).slice(0, maxLineLength).join(''),
    );
    const lines = values.random ? shuffledLines(given) : given;
    const theme = themeWith(getTheme('github-dark'), {
      title: values.color ?? '#36bcf7',
      // Their default background is transparent and they draw no border.
      background: values.background ?? 'none',
      border: 'none',
    });
    return renderTyping({
      lines: lines.length > 0 ? lines : [defaultLine],
      fontSize,
      cursor: '|',
      theme,
      fontFamily: values.font ? fontStack(values.font) : undefined,
      // Their weights are hundreds; a value between is rounded like CSS numbers are not.
      fontWeight: values.weight === null ? undefined : Math.round(values.weight / 100) * 100,
      letterSpacing:
        values.letterSpacing === null ? undefined : letterSpacingPx(values.letterSpacing, fontSize),
      lineSeconds: (values.duration ?? 5000) / 1000,
      // They erase a finished line before the next; a second of reading time stands in for it.
      pauseSeconds: (values.pause ?? 0) / 1000 + eraseSeconds,
      repeat: values.repeat,
      singleLine: !values.multiline,
      center: values.center,
      verticalCenter: values.vCenter,
      width: values.width ?? 400,
      height: values.height ?? 50,
    });
  },
});
