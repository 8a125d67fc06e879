/**
 * @module Property: whatever text a query carries (any code points, lone surrogates, controls,
 * markup), the card is well-formed XML and the text appears only as character data.
 */
import fc from 'fast-check';
import { XMLValidator } from 'fast-xml-parser';
import { expect, it } from 'vitest';
import { escapeXml } from '../../src/index.js';
import { expectOnlyDrawing, testApp } from '../support/svg.js';

const request = testApp({ memo: false });

/** Strings biased towards markup characters, mixed with arbitrary code points. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', minLength: 1, maxLength: 60 }),
  fc
    .array(
      fc.constantFrom('<', '>', '&', '"', "'", '/', '=', ' ', 'a', 'script', '\u0000', '\ud800', ']]>'),
      {
        minLength: 1,
        maxLength: 30,
      },
    )
    .map((parts) => parts.join('')),
);

it('escapeXml output never contains a raw markup character and always validates', () => {
  fc.assert(
    fc.property(hostileText, (text) => {
      const escaped = escapeXml(text);
      expect(escaped).not.toMatch(/[<>"']|&(?!(amp|lt|gt|quot|#39);)/);
      expect(XMLValidator.validate(`<t a="${escaped}">${escaped}</t>`)).toBe(true);
    }),
    { numRuns: 500 },
  );
});

it('cards stay well-formed with the text as character data only', async () => {
  await fc.assert(
    fc.asyncProperty(
      hostileText,
      fc.constantFrom(['/badge', 'label'], ['/text', 'text'], ['/quote', 'author'], ['/banner', 'title']),
      async (text, [path, name]) => {
        // URLSearchParams encodes anything (lone surrogates become U+FFFD, as a browser sends them).
        const response = await request(`${path}?${new URLSearchParams({ [name]: text })}`);
        expect([200, 400]).toContain(response.status);
        expect(XMLValidator.validate(response.body)).toBe(true);
        expectOnlyDrawing(response.body);
      },
    ),
    { numRuns: 150 },
  );
});
