/**
 * @module Small drawing pieces the GitHub cards share: 16 px icons, a progress ring, number
 * formatting and text elements (escaped here, the one way card text enters the markup).
 */
import { round } from '../svg/document.js';
import { escapeXml } from '../svg/escape.js';
import { fitText } from '../svg/fit.js';

export type IconName =
  | 'star'
  | 'commit'
  | 'pull-request'
  | 'merge'
  | 'discussion'
  | 'issue'
  | 'repo'
  | 'fork'
  | 'people'
  | 'flame'
  | 'calendar';

/** Icons on a 16 x 16 grid, drawn with strokes so one colour fits every theme. */
const iconPaths: Record<IconName, string> = {
  star: 'M8 1.5l1.9 4 4.3.5-3.2 3 .9 4.3L8 11.1l-3.9 2.2.9-4.3-3.2-3 4.3-.5z',
  commit: 'M1 8h4M11 8h4M8 5a3 3 0 1 0 0 6 3 3 0 1 0 0-6z',
  'pull-request':
    'M4 3v10M12 6v7M4 3a1.5 1.5 0 1 0 0 .01M12 13a1.5 1.5 0 1 0 0 .01M12 6c0-2-1-3-3-3H7m1.5-1.5L7 3l1.5 1.5',
  merge:
    'M4 3a1.5 1.5 0 1 0 0 .01M4 13a1.5 1.5 0 1 0 0 .01M12 8a1.5 1.5 0 1 0 0 .01M4 4.5v7M4 4.5c0 2 2 3.5 6.5 3.5',
  discussion: 'M1.5 2.5h9v6h-5l-3 2.5v-2.5h-1zM10.5 5.5h4v6h-1V14l-3-2.5H7V10',
  issue: 'M8 1.8a6.2 6.2 0 1 0 0 12.4A6.2 6.2 0 1 0 8 1.8zM8 7v.01M8 5.5v3',
  repo: 'M3 2.5h9.5v9H4.5A1.5 1.5 0 0 0 3 13V2.5zM3 13a1.5 1.5 0 0 0 1.5 1.5h8v-3',
  fork: 'M5 2.5a1.5 1.5 0 1 0 0 .01M11 2.5a1.5 1.5 0 1 0 0 .01M8 13.5a1.5 1.5 0 1 0 0 .01M5 4v1.5c0 1 1 2 2 2h2c1 0 2-1 2-2V4M8 7.5V12',
  people:
    'M6 7a2.5 2.5 0 1 0 0-5 2.5 2.5 0 1 0 0 5zM1.5 14c0-2.5 2-4.5 4.5-4.5s4.5 2 4.5 4.5M11 2.2a2.5 2.5 0 0 1 0 4.6M12.5 9.8c1.3.6 2 2.2 2 4.2',
  flame: 'M8 1.5c.5 2.5 4.5 4 4.5 8a4.5 4.5 0 0 1-9 0c0-2 1-3 2-4 0 1.5.8 2.5 1.5 2.5C7 6 7 4 8 1.5z',
  calendar: 'M2.5 3.5h11v10h-11zM2.5 6.5h11M5 2v3M11 2v3',
};

/** An icon at (x, y) (top-left), 16 px unless `size` says otherwise. */
export function icon(name: IconName, x: number, y: number, color: string, size = 16): string {
  const scale = size === 16 ? '' : ` scale(${round(size / 16)})`;
  return `<path transform="translate(${round(x)} ${round(y)})${scale}" d="${iconPaths[name]}" fill="none" stroke="${color}" stroke-width="1.4" stroke-linecap="round" stroke-linejoin="round"/>`;
}

interface TextOptions {
  size?: number;
  fill: string;
  bold?: boolean;
  anchor?: 'start' | 'middle' | 'end';
  /** Extra attributes (trusted: built by the card). */
  extra?: string;
  /** Widest the text may be drawn, px: longer text is cut with an ellipsis (see `fitText`). */
  maxWidth?: number;
}

/** A `<text>` element; `content` is plain text and is escaped here. */
export function label(x: number, y: number, content: string, options: TextOptions): string {
  const size = options.size === undefined ? '' : ` font-size="${options.size}"`;
  const weight = options.bold ? ' font-weight="bold"' : '';
  const anchor = options.anchor && options.anchor !== 'start' ? ` text-anchor="${options.anchor}"` : '';
  const extra = options.extra ? ` ${options.extra}` : '';
  const shown =
    options.maxWidth === undefined
      ? content
      : fitText(content, { maxWidth: options.maxWidth, size: options.size, bold: options.bold });
  return `<text x="${round(x)}" y="${round(y)}" fill="${options.fill}"${size}${weight}${anchor}${extra}>${escapeXml(shown)}</text>`;
}

/** A progress ring: a faint full circle and an arc for `fraction` (0-1), starting at the top. */
export function progressRing(
  cx: number,
  cy: number,
  radius: number,
  fraction: number,
  color: string,
  width = 6,
): string {
  const circumference = 2 * Math.PI * radius;
  const shown = Math.min(1, Math.max(0, fraction)) * circumference;
  const base = `<circle cx="${round(cx)}" cy="${round(cy)}" r="${radius}" fill="none" stroke="${color}" stroke-opacity=".2" stroke-width="${width}"/>`;
  const arc = `<circle cx="${round(cx)}" cy="${round(cy)}" r="${radius}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linecap="round" stroke-dasharray="${round(shown)} ${round(circumference)}" transform="rotate(-90 ${round(cx)} ${round(cy)})"/>`;
  return base + arc;
}

/** 1234 -> "1,234"; from 100,000 on, "123.4k" / "1.2M" so numbers stay short. */
export function formatCount(value: number): string {
  if (value >= 1_000_000) return `${trimZero((value / 1_000_000).toFixed(1))}M`;
  if (value >= 100_000) return `${trimZero((value / 1_000).toFixed(1))}k`;
  return Math.round(value).toLocaleString('en-US');
}

function trimZero(text: string): string {
  return text.endsWith('.0') ? text.slice(0, -2) : text;
}

/** "12 Mar 2024" in UTC, for date ranges. */
export function formatDay(date: string): string {
  const [year, month, day] = date.split('-').map(Number);
  const name = monthNames[(month ?? 1) - 1] ?? '';
  return `${day} ${name} ${year}`;
}

export const monthNames = [
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
] as const;

/** A colour for CSS/SVG attributes, from a validated `#hex` value or the fallback. */
export function colorOr(color: string, fallback: string): string {
  return color === '' ? fallback : color;
}
