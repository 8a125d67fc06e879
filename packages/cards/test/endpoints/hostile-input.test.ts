/**
 * @module Hostile query text never becomes markup: every text parameter of every endpoint,
 * fed strings that try to close elements, add attributes, inject CSS or scripts, or break XML.
 */
import { describe, expect, it } from 'vitest';
import { expectOnlyDrawing, expectRenderableSvg, testApp } from '../support/svg.js';

const request = testApp();

const hostile = [
  '<script>alert(1)</script>',
  '"><svg onload=alert(1)>',
  "' onmouseover='alert(1)",
  '</text><a href="javascript:alert(1)">x</a>',
  '</style><style>*{fill:red}</style>',
  ']]><![CDATA[<script>',
  '<!-- comment --><?xml-stylesheet href="x"?>',
  '&amp; &lt; &#x3c; &unknown;',
  'control \u0000\u0001\u0008\u000b\u000c\u001f chars',
  'bidi \u202e override and emoji 🚀 and 漢字',
  '<foreignObject><iframe src="https://example.com"/></foreignObject>',
  '{{constructor.constructor("alert(1)")()}}',
];

/** Text parameters per endpoint (short enough for each parameter's limit). */
const targets: [path: string, parameter: string, base: string][] = [
  ['/typing', 'lines', ''],
  ['/typing', 'cursor', ''],
  ['/text', 'text', ''],
  ['/quote', 'text', ''],
  ['/quote', 'author', ''],
  ['/badge', 'label', ''],
  ['/badge', 'message', ''],
  ['/svg', 'text', 'type=divider'],
  ['/svg', 'text', 'type=status'],
  ['/svg', 'text', 'type=pill'],
  ['/svg', 'text', 'type=card'],
  ['/banner', 'title', ''],
  ['/banner', 'subtitle', ''],
  ['/visitors', 'label', 'username=hostile'],
  ['/visitors', 'username', ''],
  ['/skills', 'skills', ''],
  ['/icon', 'name', ''],
];

describe('hostile text', () => {
  for (const [path, parameter, base] of targets) {
    it(`${path} ${parameter}${base ? ` (${base})` : ''}`, async () => {
      for (const attack of hostile) {
        const query = new URLSearchParams(base);
        query.set(parameter, attack);
        const response = await request(`${path}?${query}`);
        // Rejected (identifiers, lists) or drawn: either way a well-formed SVG with no markup from the input.
        expect([200, 400]).toContain(response.status);
        expect(response.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
        expectRenderableSvg(response.body);
        expectOnlyDrawing(response.body);
        expect(response.body).not.toMatch(
          /<script|<a[ >]|<iframe|<foreignObject|<!--|<\?xml-stylesheet|<!\[CDATA/i,
        );
        // Only the card's own stylesheet: injected `</style><style>` stays text.
        expect(response.body.match(/<style>/g)?.length ?? 0).toBeLessThanOrEqual(1);
      }
    });
  }

  it('keeps readable text after escaping (what users typed is what they see)', async () => {
    const response = await request(`/badge?label=${encodeURIComponent('a<b & "c"')}&message=ok`);
    expect(response.body).toContain('>a&lt;b &amp; &quot;c&quot;</text>');
  });

  it('drops characters XML cannot carry instead of producing an unparsable document', async () => {
    const response = await request(`/text?text=${encodeURIComponent('bell\u0007here')}`);
    expect(response.status).toBe(200);
    expect(response.body).toContain('bellhere');
  });

  it('answers 400, not 500, for malformed percent-encoding', async () => {
    const response = await request('/badge?label=%E0%A4%A&message=%ZZ');
    expect(response.status).toBeLessThan(500);
    expectRenderableSvg(response.body);
  });
});
