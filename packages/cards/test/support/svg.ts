/**
 * @module Test helpers: request a card from the app and check the SVG is real XML that
 * resvg renders.
 */
import { Resvg } from '@resvg/resvg-js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { expect } from 'vitest';
import { type CreateAppOptions, createApp } from '../../src/index.js';

interface CardResponse {
  status: number;
  headers: Headers;
  body: string;
}

/** One app shared by a test file (memoisation on, like production). */
export function testApp(options: CreateAppOptions = {}) {
  const app = createApp(options);
  return async (path: string, init?: RequestInit): Promise<CardResponse> => {
    const response = await app.request(path, init);
    return { status: response.status, headers: response.headers, body: await response.text() };
  };
}

/** Asserts well-formed XML with an accessible `<svg>` root, and renders it with resvg. */
export function expectRenderableSvg(body: string): { width: number; height: number } {
  const verdict = XMLValidator.validate(body);
  expect(verdict, typeof verdict === 'object' ? verdict.err.msg : '').toBe(true);
  expect(body.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  expect(body).toMatch(/^<svg[^>]* role="img"[^>]* aria-labelledby="title[^"]*"/);
  expect(body).toMatch(/<title id="title">[^<]+<\/title>/);
  // A failed layout computation shows up as NaN or Infinity in coordinates.
  expect(body).not.toMatch(/="[-\d. ]*(NaN|Infinity)/);
  const rendered = new Resvg(body, {
    font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
  }).render();
  expect(rendered.width).toBeGreaterThan(0);
  expect(rendered.height).toBeGreaterThan(0);
  return { width: rendered.width, height: rendered.height };
}

/** Asserts a 400 SVG error card whose text names `parameter`. */
export function expectBadRequest(response: CardResponse, parameter: string): void {
  expect(response.status).toBe(400);
  expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
  expect(response.headers.get('cache-control')).toBe('public, max-age=600');
  expectRenderableSvg(response.body);
  expect(response.body).toContain(`<title id="title">Error 400: ${parameter} `);
}

const drawingParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  allowBooleanAttributes: true,
});

/** Every element a card may contain: drawing only, nothing that links, embeds or runs. */
const drawingElements = new Set([
  'svg',
  'title',
  'desc',
  'style',
  'g',
  'rect',
  'circle',
  'path',
  'text',
  'clipPath',
  'linearGradient',
  'stop',
  'pattern',
  'defs',
  // skill-icons' artwork (their tiles' shadows and shades).
  'radialGradient',
  'mask',
  'filter',
  'feFlood',
  'feColorMatrix',
  'feOffset',
  'feGaussianBlur',
  'feBlend',
  'use',
]);

/** Walks the whole document: only drawing elements, no event handlers, no links out of it. */
export function expectOnlyDrawing(svg: string): void {
  walk(drawingParser.parse(svg), '#document');
}

function walk(node: unknown, name: string): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, name);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('@')) {
      // A reference inside the document (`<use href="#id">`) loads nothing.
      if (/^@(xlink:)?href$/i.test(key) && String(value).startsWith('#')) continue;
      expect(key.toLowerCase(), `attribute on <${name}>`).not.toMatch(/^@(on|href|xlink:href|src)/);
      continue;
    }
    if (key === '#text' || key === '?xml') continue;
    expect(drawingElements.has(key), `element <${key}>`).toBe(true);
    walk(value, key);
  }
}
