/**
 * @module The SVG error card: what went wrong, readable on any theme.
 */
import { defaultThemeName, getTheme, type Theme } from '../themes/index.js';
import { round, svgDocument } from './document.js';
import { escapeXml } from './escape.js';
import { cardFrame, framePadding } from './frame.js';
import { fontFamily, measureText } from './measure.js';
import { wrapText } from './wrap.js';

/** Short headline per status. */
const headlines: Record<number, string> = {
  400: 'Invalid request',
  404: 'Not found',
  429: 'Rate limited',
  500: 'Internal error',
  502: 'Upstream error',
  503: 'Unavailable',
  504: 'Upstream timeout',
};

const messageSize = 12;
const lineHeight = 17;
const maxMessageWidth = 440;
const errorRed = '#f85149';

/**
 * Renders an error card, e.g. `errorCard(400, 'fontSize must be a whole number from 12 to 48')`.
 * The message is plain text (escaped here) wrapped to at most 6 lines.
 */
export function errorCard(
  status: number,
  message: string,
  theme: Theme = getTheme(defaultThemeName),
): string {
  const headline = `${status} · ${headlines[status] ?? 'Error'}`;
  const lines = wrapText(message, { maxWidth: maxMessageWidth, size: messageSize, maxLines: 6 });
  const textLeft = framePadding + 30;
  const widest = Math.max(
    measureText(headline, { size: 14, bold: true }),
    ...lines.map((line) => measureText(line, { size: messageSize })),
  );
  const width = Math.ceil(Math.max(280, textLeft + widest + framePadding));
  const height = 58 + lines.length * lineHeight;
  const badge = `<circle cx="${framePadding + 10}" cy="29" r="10" fill="${errorRed}"/><path d="M${framePadding + 10} 22.5v8" stroke="#fff" stroke-width="2.4" stroke-linecap="round"/><circle cx="${framePadding + 10}" cy="35" r="1.4" fill="#fff"/>`;
  const head = `<text x="${textLeft}" y="34" fill="${theme.title}" font-size="14" font-weight="bold">${escapeXml(headline)}</text>`;
  const body = lines
    .map(
      (line, index) =>
        `<text x="${textLeft}" y="${round(58 + index * lineHeight)}" fill="${theme.text}" font-size="${messageSize}">${escapeXml(line)}</text>`,
    )
    .join('');
  return svgDocument({
    width,
    height,
    title: `Error ${status}: ${message}`,
    body: `${cardFrame({ width, height, theme })}${badge}<g font-family="${fontFamily}">${head}${body}</g>`,
  });
}
