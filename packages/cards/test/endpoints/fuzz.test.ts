/**
 * @module Fuzz: random values for every parameter of the nine query-only endpoints never give
 * anything but a 200 card or a 400 error card, both well-formed and renderable.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { expectRenderableSvg, testApp } from '../support/svg.js';

const request = testApp({ memo: false });

/** Parameter names per endpoint, as the spec lists them. */
const parameters: Record<string, readonly string[]> = {
  '/typing': ['lines', 'theme', 'fontSize', 'cursor'],
  '/text': ['text', 'animation', 'duration', 'theme'],
  '/icon': ['name', 'size', 'radius', 'theme'],
  '/quote': ['text', 'author', 'alignment', 'theme'],
  '/badge': ['label', 'message', 'color', 'animation', 'style'],
  '/skills': ['skills', 'showLabels', 'size', 'theme'],
  '/svg': ['type', 'text', 'theme'],
  '/banner': ['title', 'subtitle', 'pattern', 'alignment', 'theme'],
  '/visitors': ['username', 'label', 'color', 'style'],
};

const value = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: -100, max: 200 }).map(String),
  fc.double({ noNaN: false }).map(String),
  fc.constantFrom(
    '',
    ' ',
    ';',
    ',',
    ';;',
    'true',
    '0',
    'dark',
    'github-dark',
    'wave',
    'for-the-badge',
    'card',
    'react,,go',
    '%23',
    '#3b82f6',
  ),
  fc.string({ maxLength: 400 }),
);

it('answers every random query with a 200 or 400 card that renders', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...Object.keys(parameters)),
      fc.dictionary(fc.constantFrom('username', 'unknown', 'theme'), value, { maxKeys: 2 }),
      // One optional value per parameter: null leaves the parameter out.
      fc.array(fc.option(value), { minLength: 5, maxLength: 5 }),
      async (path, extra, values) => {
        const query = new URLSearchParams(extra);
        parameters[path]!.forEach((name, index) => {
          const given = values[index];
          if (given !== null && given !== undefined) query.set(name, given);
        });
        if (path === '/visitors' && !query.has('username')) query.set('username', 'fuzz');
        const response = await request(`${path}?${query}`);
        expect([200, 400], `${path}?${query}`).toContain(response.status);
        expectRenderableSvg(response.body);
      },
    ),
    { numRuns: 300 },
  );
}, 120_000);
