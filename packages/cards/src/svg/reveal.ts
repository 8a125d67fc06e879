/**
 * @module Character-by-character reveal timing shared by typing effects: keyframes that move a
 * clip rectangle (and a cursor) by the measured width of each typed character.
 */
import { type MeasureOptions, measureText } from './measure.js';

/** Per-character step times in seconds. */
export interface RevealPace {
  typeSeconds: number;
  eraseSeconds: number;
}

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

export interface RevealWindow {
  /** Start of typing within the cycle, seconds. */
  start: number;
  /** How long the fully typed text stays, seconds. */
  hold: number;
  /** Whether to erase after holding (typing cycles) or keep the text (one-shot). */
  erase: boolean;
}

/**
 * Keyframes (`step-end` timing) that translate a clip rectangle whose resting position shows
 * the whole text, so the un-animated state is the finished line. Returns the keyframes body and
 * the time the window ends.
 */
export function revealKeyframes(
  name: string,
  widths: readonly number[],
  window: RevealWindow,
  pace: RevealPace,
  cycle: number,
): string {
  const full = widths.at(-1) ?? 0;
  const frames: string[] = [`0%{${shift(-full - 2)}}`];
  let time = window.start;
  for (let typed = 1; typed < widths.length; typed++) {
    time += pace.typeSeconds;
    frames.push(`${percent(time, cycle)}{${shift(widths[typed]! - full)}}`);
  }
  if (window.erase) {
    time += window.hold;
    for (let typed = widths.length - 2; typed >= 0; typed--) {
      frames.push(`${percent(time, cycle)}{${shift(widths[typed]! - full - (typed === 0 ? 2 : 0))}}`);
      time += pace.eraseSeconds;
    }
  }
  return `@keyframes ${name}{${frames.join('')}}`;
}

/** Seconds a reveal window lasts. */
export function revealSeconds(
  characters: number,
  window: Omit<RevealWindow, 'start'>,
  pace: RevealPace,
): number {
  return (
    characters * pace.typeSeconds +
    (window.erase ? window.hold + characters * pace.eraseSeconds : window.hold)
  );
}
