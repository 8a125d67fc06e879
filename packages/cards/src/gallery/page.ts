/**
 * @module The HTML gallery and URL builder served at `/`.
 */
import type { Endpoint } from '../http/endpoint.js';
import { escapeXml } from '../svg/escape.js';

export function renderGallery(endpoints: readonly Endpoint[]): string {
  const items = endpoints
    .map(
      (endpoint) =>
        `<li><a href="${endpoint.path}">${escapeXml(endpoint.path)}</a> ${escapeXml(endpoint.summary)}</li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>readme-cards</title></head><body><h1>readme-cards</h1><ul>${items}</ul></body></html>`;
}
