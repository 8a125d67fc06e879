/**
 * @module The typing card: lines typed one after another, each on its own row, with a
 * blinking cursor; the cycle holds the finished text, then starts again. Pure CSS. The
 * un-animated state (reduced motion, renderers without CSS) is the finished text: every line
 * typed out, the cursor after the last one.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { reducedMotionCss } from '../svg/motion.js';
import { characterPositions, prefixWidths, revealKeyframes } from '../svg/reveal.js';
import type { Theme } from '../themes/index.js';

interface TypingInput {
  lines: readonly string[];
  fontSize: number;
  cursor: string;
  theme: Theme;
  /** The whole font-family list, replacing ours (shown where the viewer has the first font). */
  fontFamily?: string;
  /** CSS font weight (100-900); default normal. Measured bold from 600 on. */
  fontWeight?: number;
  /** Extra space after each character, px. */
  letterSpacing?: number;
  /** Seconds to type one line; default 0.08 s per character. */
  lineSeconds?: number;
  /** Seconds between lines; default 0.5. */
  pauseSeconds?: number;
  /** Type once and keep the text; default true (the cycle repeats). */
  repeat?: boolean;
  /** Every line typed in the same place, each replacing the one before. */
  singleLine?: boolean;
  /** Centre the lines across, and the block down (with `height`). */
  center?: boolean;
  verticalCenter?: boolean;
  /** Size, px, grown to fit the text; default: the text's. */
  width?: number;
  height?: number;
}

interface Timing {
  /** Seconds per character of each line. */
  perCharacter: readonly number[];
  lineGap: number;
  hold: number;
}

/** Seconds per character: the pace of a quick typist. */
const perCharacter = 0.08;
/** Pause between lines, and how long the finished text stays before the cycle restarts. */
const lineGapSeconds = 0.5;
const holdSeconds = 3;

function seconds(value: number): string {
  return `${Math.round(value * 1000) / 1000}s`;
}

function percent(time: number, cycle: number): string {
  return `${Math.round((time / cycle) * 100_000) / 1000}%`;
}

/** Start and end of typing for each line, and the cycle length. */
function schedule(
  lines: readonly string[],
  timing: Timing,
): { starts: number[]; ends: number[]; cycle: number } {
  const starts: number[] = [];
  const ends: number[] = [];
  let time = 0.3;
  lines.forEach((line, index) => {
    starts.push(time);
    time += Array.from(line).length * timing.perCharacter[index]!;
    ends.push(time);
    time += timing.lineGap;
  });
  return { starts, ends, cycle: time - timing.lineGap + timing.hold };
}

/** Single-line mode: line `index` shows from its start until the next line starts. */
function slotKeyframes(index: number, start: number, end: number | undefined, cycle: number): string {
  const frames = [`0%{opacity:0}`, `${percent(start, cycle)}{opacity:1}`];
  if (end !== undefined) frames.push(`${percent(end, cycle)}{opacity:0}`);
  return `@keyframes s${index}{${frames.join('')}}`;
}

/** A line's cursor shows while that line is typed; the last line keeps it to the end. */
function cursorKeyframes(index: number, start: number, end: number | undefined, cycle: number): string {
  const frames = [`0%{opacity:0}`, `${percent(start, cycle)}{opacity:1}`];
  if (end !== undefined) frames.push(`${percent(end, cycle)}{opacity:0}`);
  return `@keyframes v${index}{${frames.join('')}}`;
}

export function renderTyping(input: TypingInput): string {
  const { lines, fontSize, theme } = input;
  const padding = Math.round(fontSize * 0.7);
  const lineHeight = Math.round(fontSize * 1.45);
  const font = { size: fontSize, bold: (input.fontWeight ?? 400) >= 600 };
  const cursorWidth = measureText(input.cursor, font);
  const spacing = input.letterSpacing ?? 0;
  const widths = lines.map((line) => prefixWidths(line, font).map((width, typed) => width + typed * spacing));
  const longest = Math.max(0, ...widths.map((w) => w.at(-1)!));
  const rows = input.singleLine ? 1 : lines.length;
  // A fixed size never cuts the text off: it grows to fit.
  const width = Math.max(input.width ?? 0, Math.ceil(longest + cursorWidth + 2 * padding + 2));
  const contentHeight = rows * lineHeight + 2 * padding - Math.round(fontSize * 0.25);
  // A given height may trim the bottom padding, never the text.
  const height =
    input.height === undefined ? contentHeight : Math.max(input.height, rows * lineHeight + padding);
  const offsetY = input.verticalCenter ? (height - contentHeight) / 2 : 0;
  const lineGap = input.pauseSeconds ?? lineGapSeconds;
  const timing: Timing = {
    perCharacter: lines.map((line) =>
      input.lineSeconds === undefined
        ? perCharacter
        : input.lineSeconds / Math.max(1, Array.from(line).length),
    ),
    lineGap,
    hold: input.pauseSeconds ?? holdSeconds,
  };
  const { starts, ends, cycle } = schedule(lines, timing);
  const last = lines.length - 1;
  const iterations = input.repeat === false ? '1;animation-fill-mode:forwards' : 'infinite';
  const css: string[] = [
    `.c{animation:b 1s step-end infinite}@keyframes b{50%{opacity:0}}`,
    `.m{animation-duration:${seconds(cycle)};animation-timing-function:step-end;animation-iteration-count:${iterations}}`,
  ];
  const parts: string[] = [];
  lines.forEach((line, index) => {
    const full = widths[index]!.at(-1)!;
    const left = input.center ? (width - full - cursorWidth) / 2 : padding;
    const row = input.singleLine ? 0 : index;
    const baseline = round(offsetY + padding + row * lineHeight + fontSize * 0.95);
    const top = round(baseline - fontSize * 1.1);
    css.push(
      revealKeyframes(`r${index}`, widths[index]!, {
        start: starts[index]!,
        perCharacter: timing.perCharacter[index]!,
        cycle,
      }),
      `.m${index}{animation-name:r${index}}`,
      cursorKeyframes(index, starts[index]!, index === last ? undefined : ends[index]! + lineGap, cycle),
      `.v${index}{animation:v${index} ${seconds(cycle)} step-end ${iterations}}`,
    );
    // Only the last line's cursor shows when nothing is animated.
    const hidden = index === last ? '' : ' opacity="0"';
    const drawn = [
      `<clipPath id="k${index}"><rect class="m m${index}" x="${round(left)}" y="${top}" width="${round(full + 0.5)}" height="${lineHeight}"/></clipPath>`,
      `<text x="${characterPositions(left, widths[index]!)}" y="${baseline}" clip-path="url(#k${index})">${escapeXml(line)}</text>`,
      `<g class="m m${index}"><g class="v${index}"${hidden}><text class="c" x="${round(left + full + 1)}" y="${baseline}" fill="${theme.accent}">${escapeXml(input.cursor)}</text></g></g>`,
    ];
    if (input.singleLine) {
      // Lines share one place: each shows in its own slot; unanimated, the last one.
      css.push(
        slotKeyframes(index, starts[index]!, index === last ? undefined : starts[index + 1], cycle),
        `.s${index}{animation:s${index} ${seconds(cycle)} step-end ${iterations}}`,
      );
      parts.push(`<g class="s${index}"${hidden}>${drawn.join('')}</g>`);
    } else {
      parts.push(...drawn);
    }
  });
  css.push(reducedMotionCss);
  const family = escapeXml(input.fontFamily ?? fontFamily);
  const weight = input.fontWeight === undefined ? '' : ` font-weight="${input.fontWeight}"`;
  return svgDocument({
    width,
    height,
    title: lines.join(' / '),
    css: css.join(''),
    body: `${cardFrame({ width, height, theme })}<g font-family="${family}" font-size="${fontSize}"${weight} fill="${theme.title}">${parts.join('')}</g>`,
  });
}
