/**
 * @module Escaping, Verdana metrics and line breaking.
 */
import { describe, expect, it } from 'vitest';
import { escapeXml, measureText, widthInFont, wrapText } from '../../src/index.js';

describe('escapeXml', () => {
  it('escapes the five XML specials', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
  it('drops characters XML 1.0 forbids and lone surrogates, keeps tab/newline and emoji', () => {
    expect(escapeXml('a\u0000b\u0008c\u000bd\tE\nF\ud800G\udfffH🚀\ufffe')).toBe('abcd\tE\nFGH🚀');
  });
});

describe('measureText (anafanafo Verdana, the tables shields.io uses)', () => {
  it('matches the published shields.io figures', () => {
    // Values from the reference notes: "build" = 26.7, "passing" = 41.75 at 11px Verdana.
    expect(measureText('build')).toBeCloseTo(26.7, 2);
    expect(measureText('passing')).toBeCloseTo(41.75, 2);
  });
  it('scales linearly with the font size', () => {
    expect(measureText('passing', { size: 22 })).toBeCloseTo(83.5, 2);
  });
  it('gives wide scripts one em per character', () => {
    expect(widthInFont('漢字', '11px Verdana')).toBe(22);
  });
  it('makes W wider than i (real metrics, not a character count)', () => {
    expect(measureText('WWWW')).toBeGreaterThan(2 * measureText('iiii'));
  });
});

describe('wrapText', () => {
  it('breaks at spaces within the width', () => {
    const lines = wrapText('the quick brown fox jumps over the lazy dog', { maxWidth: 80, size: 11 });
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(measureText(line)).toBeLessThanOrEqual(80);
    expect(lines.join(' ')).toBe('the quick brown fox jumps over the lazy dog');
  });
  it('breaks a word longer than a line between characters', () => {
    const lines = wrapText('a'.repeat(100), { maxWidth: 60, size: 11 });
    for (const line of lines) expect(measureText(line)).toBeLessThanOrEqual(60);
    expect(lines.join('')).toBe('a'.repeat(100));
  });
  it('ends the last kept line with an ellipsis when lines run out', () => {
    const lines = wrapText('one two three four five six seven eight', {
      maxWidth: 40,
      size: 11,
      maxLines: 2,
    });
    expect(lines).toHaveLength(2);
    expect(lines[1]!.endsWith('…')).toBe(true);
    expect(measureText(lines[1]!)).toBeLessThanOrEqual(40);
  });
});
