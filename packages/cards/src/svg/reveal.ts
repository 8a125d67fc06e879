/**
 * @module Character-by-character reveal shared by typing effects: keyframes that move a clip
 * rectangle (and a cursor) by the measured width of each typed character.
 */
import { type MeasureOptions, measureText } from './measure.js';

/** Running widths of every prefix of `text`: [0, w(c1), w(c1 c2), ...]. */
export function prefixWidths(text: string, font: MeasureOptions): number[] {
  const widths = [0];
  let total = 0;
  for (const char of text) {
    total += measureText(char, font);
    widths.push(total);
  }
  return widths;
}

function percent(seconds: number, cycle: number): string {
  return `${Math.round((seconds / cycle) * 100_000) / 1000}%`;
}

function shift(offset: number): string {
  return `transform:translateX(${Math.round(offset * 100) / 100}px)`;
}

interface RevealTiming {
  /** When typing starts within the cycle, seconds. */
  start: number;
  /** Seconds per typed character. */
  perCharacter: number;
  /** Length of the whole cycle, seconds. */
  cycle: number;
}

/**
 * Keyframes (to run with `step-end` timing) that translate a clip rectangle whose resting
 * position shows the whole text: hidden at the start of the cycle, one character more at each
 * step, then the finished text until the cycle ends. So the un-animated state is the finished
 * text.
 */
export function revealKeyframes(name: string, widths: readonly number[], timing: RevealTiming): string {
  const full = widths.at(-1) ?? 0;
  const frames: string[] = [`0%{${shift(-full - 2)}}`];
  let time = timing.start;
  for (let typed = 1; typed < widths.length; typed++) {
    time += timing.perCharacter;
    frames.push(`${percent(time, timing.cycle)}{${shift(widths[typed]! - full)}}`);
  }
  return `@keyframes ${name}{${frames.join('')}}`;
}

/**
 * The `x` attribute value placing every character at its measured position, so a clip edge at
 * a prefix width falls exactly between two glyphs whatever font the viewer substitutes.
 */
export function characterPositions(left: number, widths: readonly number[]): string {
  return widths
    .slice(0, -1)
    .map((width) => Math.round((left + width) * 100) / 100)
    .join(' ');
}
