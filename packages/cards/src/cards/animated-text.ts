/**
 * @module The `/text` card: a short text animated with CSS keyframes. Every animation ends on
 * (and rests at) the plain, readable text, so static renderers and reduced motion show it.
 */

import { round, svgDocument } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { cardFrame } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { reducedMotionCss } from '../svg/motion.js';
import { characterPositions, prefixWidths, revealKeyframes } from '../svg/reveal.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';

export const textAnimations = [
  'fade',
  'slide',
  'bounce',
  'wave',
  'pulse',
  'glitch',
  'blur-in',
  'reveal',
  'typewriter',
] as const;
type TextAnimation = (typeof textAnimations)[number];

interface AnimatedTextInput {
  text: string;
  animation: TextAnimation;
  /** Length of one cycle, seconds. */
  duration: number;
  theme: Theme;
}

const fontSize = 28;
const lineHeight = 38;
const padding = 24;
const maxLineWidth = 720;

/**
 * Keyframes per animation. Each cycle plays the effect in its first part and then holds the
 * plain text, so most of the time (and the resting state) the text is fully readable.
 */
const keyframes: Record<Exclude<TextAnimation, 'wave' | 'typewriter' | 'reveal' | 'glitch'>, string> = {
  fade: '@keyframes a{0%{opacity:0}35%,100%{opacity:1}}',
  slide: '@keyframes a{0%{opacity:0;transform:translateX(-32px)}35%,100%{opacity:1;transform:none}}',
  bounce:
    '@keyframes a{0%,40%,100%{transform:none}10%{transform:translateY(-14px)}20%{transform:translateY(0)}28%{transform:translateY(-6px)}}',
  pulse: '@keyframes a{0%,100%{transform:none}25%{transform:scale(1.06)}50%{transform:none}}',
  'blur-in': '@keyframes a{0%{opacity:0;filter:blur(8px)}40%,100%{opacity:1;filter:none}}',
};

function seconds(value: number): string {
  return `${Math.round(value * 1000) / 1000}s`;
}

interface Placed {
  lines: string[];
  width: number;
  height: number;
  baselines: number[];
  lineWidths: number[];
}

function layout(text: string): Placed {
  const lines = wrapText(text, { maxWidth: maxLineWidth, size: fontSize, bold: true, maxLines: 3 });
  const lineWidths = lines.map((line) => measureText(line, { size: fontSize, bold: true }));
  const width = Math.ceil(Math.max(0, ...lineWidths) + 2 * padding);
  const height = lines.length * lineHeight + 2 * padding - 8;
  const baselines = lines.map((_, index) => round(padding + fontSize * 0.85 + index * lineHeight));
  return { lines, width, height, baselines, lineWidths };
}

/** One `<text>` per character at its measured position, each delayed a little (the wave). */
function waveBody(placed: Placed, duration: number): { css: string; body: string } {
  const parts: string[] = [];
  let index = 0;
  placed.lines.forEach((line, row) => {
    let x = (placed.width - placed.lineWidths[row]!) / 2;
    for (const char of line) {
      const advance = measureText(char, { size: fontSize, bold: true });
      if (char.trim()) {
        const delay = round((index * 0.08) % duration);
        parts.push(
          `<text x="${round(x)}" y="${placed.baselines[row]}" class="w" style="animation-delay:${delay}s">${escapeXml(char)}</text>`,
        );
      }
      x += advance;
      index++;
    }
  });
  return {
    css: `.w{animation:a ${seconds(duration)} ease-in-out infinite}@keyframes a{0%,30%,100%{transform:none}15%{transform:translateY(-10px)}}`,
    body: parts.join(''),
  };
}

function centeredLines(placed: Placed): string {
  return placed.lines
    .map(
      (line, row) =>
        `<text x="${round(placed.width / 2)}" y="${placed.baselines[row]}" text-anchor="middle">${escapeXml(line)}</text>`,
    )
    .join('');
}

/** Clip rectangles that uncover each line; `typewriter` steps per character, `reveal` wipes. */
function revealBody(placed: Placed, animation: 'reveal' | 'typewriter', duration: number) {
  const css: string[] = [];
  const parts: string[] = [];
  const perLine = (duration * 0.6) / placed.lines.length;
  placed.lines.forEach((line, row) => {
    const left = (placed.width - placed.lineWidths[row]!) / 2;
    const full = placed.lineWidths[row]!;
    const top = placed.baselines[row]! - fontSize;
    if (animation === 'typewriter') {
      const widths = prefixWidths(line, { size: fontSize, bold: true });
      const perCharacter = perLine / Math.max(1, widths.length - 1);
      css.push(revealKeyframes(`t${row}`, widths, { start: row * perLine, perCharacter, cycle: duration }));
      css.push(`.t${row}{animation:t${row} ${seconds(duration)} step-end infinite}`);
    } else {
      const start = Math.round(((row * perLine) / duration) * 1000) / 10;
      const end = Math.round((((row + 1) * perLine) / duration) * 1000) / 10;
      css.push(
        `@keyframes t${row}{0%,${start}%{transform:translateX(${round(-full - 4)}px)}${end}%,100%{transform:none}}`,
        `.t${row}{animation:t${row} ${seconds(duration)} ease-out infinite}`,
      );
    }
    parts.push(
      `<clipPath id="c${row}"><rect class="t${row}" x="${round(left - 2)}" y="${round(top)}" width="${round(full + 2.5)}" height="${lineHeight}"/></clipPath><text x="${characterPositions(left, prefixWidths(line, { size: fontSize, bold: true }))}" y="${placed.baselines[row]}" clip-path="url(#c${row})">${escapeXml(line)}</text>`,
    );
  });
  return { css: css.join(''), body: parts.join('') };
}

function glitchBody(placed: Placed, duration: number, theme: Theme): { css: string; body: string } {
  const ghost = (className: string, color: string) =>
    `<g class="${className}" fill="${color}" opacity=".8">${centeredLines(placed)}</g>`;
  return {
    css: `.g1{animation:g1 ${seconds(duration)} steps(1) infinite}.g2{animation:g2 ${seconds(duration)} steps(1) infinite}@keyframes g1{0%,30%,100%{transform:none}5%{transform:translate(-3px,1px)}10%{transform:translate(2px,-1px)}15%{transform:translate(-1px,2px)}20%{transform:translate(3px,0)}}@keyframes g2{0%,30%,100%{transform:none}5%{transform:translate(3px,-1px)}10%{transform:translate(-2px,1px)}15%{transform:translate(1px,-2px)}20%{transform:translate(-3px,0)}}`,
    body: `${ghost('g1', theme.accent)}${ghost('g2', theme.ring)}<g>${centeredLines(placed)}</g>`,
  };
}

function animatedBody(placed: Placed, input: AnimatedTextInput): { css: string; body: string } {
  const { animation, duration, theme } = input;
  switch (animation) {
    case 'wave':
      return waveBody(placed, duration);
    case 'reveal':
    case 'typewriter':
      return revealBody(placed, animation, duration);
    case 'glitch':
      return glitchBody(placed, duration, theme);
    default:
      return {
        css: `.x{animation:a ${seconds(duration)} ease-out infinite;transform-box:fill-box;transform-origin:center}${keyframes[animation]}`,
        body: `<g class="x">${centeredLines(placed)}</g>`,
      };
  }
}

export function renderAnimatedText(input: AnimatedTextInput): string {
  const placed = layout(input.text);
  const { css, body } = animatedBody(placed, input);
  const { width, height } = placed;
  return svgDocument({
    width,
    height,
    title: input.text,
    css: `${css}${reducedMotionCss}`,
    body: `${cardFrame({ width, height, theme: input.theme })}<g font-family="${fontFamily}" font-size="${fontSize}" font-weight="bold" fill="${input.theme.title}">${body}</g>`,
  });
}
