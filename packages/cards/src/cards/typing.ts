/**
 * @module The typing card: lines typed one after another with a blinking cursor, in pure CSS.
 * Without animation (reduced motion, renderers without CSS) it shows the first line typed out.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { reducedMotionCss } from '../svg/motion.js';
import { prefixWidths, type RevealPace, revealKeyframes, revealSeconds } from '../svg/reveal.js';
import type { Theme } from '../themes/index.js';

export interface TypingInput {
  lines: readonly string[];
  fontSize: number;
  cursor: string;
  theme: Theme;
}

/** Typing pace of a quick typist; erasing is twice as fast. */
const pace: RevealPace = { typeSeconds: 0.08, eraseSeconds: 0.04 };
/** How long a typed line stays before it is erased, and the pause before the next one. */
const holdSeconds = 1.6;
const gapSeconds = 0.4;

function seconds(value: number): string {
  return `${Math.round(value * 1000) / 1000}s`;
}

/** Time window of each line inside one cycle. */
function schedule(lines: readonly string[]): { starts: number[]; ends: number[]; cycle: number } {
  const starts: number[] = [];
  const ends: number[] = [];
  let time = 0;
  for (const line of lines) {
    starts.push(time);
    time += revealSeconds(Array.from(line).length, { hold: holdSeconds, erase: true }, pace) + gapSeconds;
    ends.push(time);
  }
  return { starts, ends, cycle: time };
}

function percent(time: number, cycle: number): string {
  return `${Math.round((time / cycle) * 100_000) / 1000}%`;
}

/** Opacity keyframes: line `index` is visible only inside its window (multi-line cycles). */
function visibilityKeyframes(index: number, start: number, end: number, cycle: number): string {
  const frames = start === 0 ? ['0%{opacity:1}'] : ['0%{opacity:0}', `${percent(start, cycle)}{opacity:1}`];
  if (end < cycle) frames.push(`${percent(end, cycle)}{opacity:0}`);
  return `@keyframes v${index}{${frames.join('')}}`;
}

export function renderTyping(input: TypingInput): string {
  const { lines, fontSize, theme } = input;
  const padding = Math.round(fontSize * 0.8);
  const cursorWidth = measureText(input.cursor, { size: fontSize });
  const widths = lines.map((line) => prefixWidths(line, { size: fontSize }));
  const longest = Math.max(...widths.map((w) => w.at(-1)!));
  const width = Math.ceil(longest + cursorWidth + 2 * padding + 2);
  const height = Math.round(fontSize * 2.2);
  const baseline = round(height / 2 + fontSize * 0.36);
  const { starts, ends, cycle } = schedule(lines);
  const multi = lines.length > 1;
  const css: string[] = [
    `.c{animation:b 1s step-end infinite}@keyframes b{50%{opacity:0}}`,
    `.m{animation-duration:${seconds(cycle)};animation-timing-function:step-end;animation-iteration-count:infinite}`,
  ];
  const parts: string[] = [];
  lines.forEach((line, index) => {
    const full = widths[index]!.at(-1)!;
    css.push(
      revealKeyframes(
        `r${index}`,
        widths[index]!,
        { start: starts[index]!, hold: holdSeconds, erase: true },
        pace,
        cycle,
      ),
      `.m${index}{animation-name:r${index}}`,
    );
    if (multi) {
      css.push(
        visibilityKeyframes(index, starts[index]!, ends[index]!, cycle),
        `.l${index}{animation:v${index} ${seconds(cycle)} step-end infinite}`,
      );
    }
    // Lines after the first rest hidden (attribute), so a static render shows one line.
    const hidden = index > 0 ? ' opacity="0"' : '';
    parts.push(
      `<clipPath id="k${index}"><rect class="m m${index}" x="${padding}" y="0" width="${round(full + 1)}" height="${height}"/></clipPath>`,
      `<g class="l${index}"${hidden}><text x="${padding}" y="${baseline}" clip-path="url(#k${index})">${escapeXml(line)}</text><g class="m m${index}"><text class="c" x="${round(padding + full + 1)}" y="${baseline}" fill="${theme.accent}">${escapeXml(input.cursor)}</text></g></g>`,
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
