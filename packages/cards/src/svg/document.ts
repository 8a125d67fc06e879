/**
 * @module The root `<svg>` element every card shares: size, accessibility, optional CSS.
 */
import { escapeXml } from './escape.js';

export interface SvgDocument {
  width: number;
  height: number;
  /** Accessible name: read by screen readers, shown as a tooltip. Plain text (escaped here). */
  title: string;
  /** Optional longer description (plain text). */
  description?: string;
  /** CSS placed in a `<style>` element (trusted: built by the card, never from the query). */
  css?: string;
  /** Markup of the content (already escaped where it carries text). */
  body: string;
}

/** Rounds a coordinate to at most two decimals so output stays short and deterministic. */
export function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Wraps card content in an accessible SVG root: `role="img"`, a `<title>` referenced by
 * `aria-labelledby`, and `<desc>` when given.
 */
export function svgDocument(doc: SvgDocument): string {
  const width = round(doc.width);
  const height = round(doc.height);
  const labelledBy = doc.description === undefined ? 'title' : 'title desc';
  const desc = doc.description === undefined ? '' : `<desc id="desc">${escapeXml(doc.description)}</desc>`;
  const style = doc.css ? `<style>${doc.css}</style>` : '';
  // Text made only of characters XML cannot carry escapes to nothing; an image still needs a name.
  const title = escapeXml(doc.title).trim() || 'Card';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${labelledBy}"><title id="title">${title}</title>${desc}${style}${doc.body}</svg>`;
}
