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

export interface TypingInput {
  lines: readonly string[];
  fontSize: number;
  cursor: string;
  theme: Theme;
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
function schedule(lines: readonly string[]): { starts: number[]; ends: number[]; cycle: number } {
  const starts: number[] = [];
  const ends: number[] = [];
  let time = 0.3;
  for (const line of lines) {
    starts.push(time);
    time += Array.from(line).length * perCharacter;
    ends.push(time);
    time += lineGapSeconds;
  }
  return { starts, ends, cycle: time - lineGapSeconds + holdSeconds };
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
  const cursorWidth = measureText(input.cursor, { size: fontSize });
  const widths = lines.map((line) => prefixWidths(line, { size: fontSize }));
  const longest = Math.max(0, ...widths.map((w) => w.at(-1)!));
  const width = Math.ceil(longest + cursorWidth + 2 * padding + 2);
  const height = lines.length * lineHeight + 2 * padding - Math.round(fontSize * 0.25);
  const { starts, ends, cycle } = schedule(lines);
  const last = lines.length - 1;
  const css: string[] = [
    `.c{animation:b 1s step-end infinite}@keyframes b{50%{opacity:0}}`,
    `.m{animation-duration:${seconds(cycle)};animation-timing-function:step-end;animation-iteration-count:infinite}`,
  ];
  const parts: string[] = [];
  lines.forEach((line, index) => {
    const full = widths[index]!.at(-1)!;
    const baseline = round(padding + index * lineHeight + fontSize * 0.95);
    const top = round(baseline - fontSize * 1.1);
    css.push(
      revealKeyframes(`r${index}`, widths[index]!, { start: starts[index]!, perCharacter, cycle }),
      `.m${index}{animation-name:r${index}}`,
      cursorKeyframes(
        index,
        starts[index]!,
        index === last ? undefined : ends[index]! + lineGapSeconds,
        cycle,
      ),
      `.v${index}{animation:v${index} ${seconds(cycle)} step-end infinite}`,
    );
    // Only the last line's cursor shows when nothing is animated.
    const hidden = index === last ? '' : ' opacity="0"';
    parts.push(
      `<clipPath id="k${index}"><rect class="m m${index}" x="${padding}" y="${top}" width="${round(full + 0.5)}" height="${lineHeight}"/></clipPath>`,
      `<text x="${characterPositions(padding, widths[index]!)}" y="${baseline}" clip-path="url(#k${index})">${escapeXml(line)}</text>`,
      `<g class="m m${index}"><g class="v${index}"${hidden}><text class="c" x="${round(padding + full + 1)}" y="${baseline}" fill="${theme.accent}">${escapeXml(input.cursor)}</text></g></g>`,
    );
  });
  css.push(reducedMotionCss);
  return svgDocument({
    width,
    height,
    title: lines.join(' / '),
    css: css.join(''),
    body: `${cardFrame({ width, height, theme })}<g font-family="${fontFamily}" font-size="${fontSize}" fill="${theme.title}">${parts.join('')}</g>`,
  });
}
