/**
 * @module Animated cards respect reduced motion and rest on a readable final frame: no text is
 * hidden unless CSS animation runs.
 */

import anafanafo from 'anafanafo';
import { describe, expect, it } from 'vitest';
import { reducedMotionCss } from '../../src/index.js';
import { testApp } from '../support/svg.js';

const request = testApp();

const animated = [
  '/typing?lines=first+line;second+line;third',
  ...['fade', 'slide', 'bounce', 'wave', 'pulse', 'glitch', 'blur-in', 'reveal', 'typewriter'].map(
    (animation) => `/text?text=Hello+there+friend&animation=${animation}`,
  ),
  ...['shimmer', 'pulse', 'glow', 'bounce'].map((animation) => `/badge?animation=${animation}`),
];

/** Base CSS rules (outside @keyframes and @media) that hide something. */
function hidingBaseRules(css: string): string[] {
  const withoutBlocks = css
    .replace(/@keyframes [^{]+\{(?:[^{}]*\{[^}]*\})*\}/g, '')
    .replace(/@media[^{]+\{[^}]*\{[^}]*\}\}/g, '');
  return [...withoutBlocks.matchAll(/([^{}]+)\{([^}]*)\}/g)]
    .filter((rule) => /opacity:0(?![.\d])|visibility:hidden|display:none/.test(rule[2]!))
    .map((rule) => rule[1]!);
}

describe('animated cards', () => {
  it.each(animated)('%s stops for reduced motion and hides no text when not animated', async (path) => {
    const { status, body } = await request(path);
    expect(status).toBe(200);
    expect(body).toContain(reducedMotionCss);
    const css = /<style>(.*)<\/style>/.exec(body)![1]!;
    // Only decorations (the glow overlay) may rest invisible.
    expect(hidingBaseRules(css).filter((selector) => selector !== '.glow')).toEqual([]);
    // Elements hidden by attribute hold no text but a cursor.
    for (const hidden of body.matchAll(/<g[^>]* opacity="0"[^>]*>(.*?)<\/g>/g)) {
      expect(hidden[1]).toMatch(/^<text class="c"[^>]*>[^<]*<\/text>$/);
    }
  });

  it('typing shows every line in the static frame, each on its own row, cursor after the last', async () => {
    const { body } = await request('/typing?lines=first+line;second+line;third');
    const rows = [
      ...body.matchAll(/<text x="[\d. ]+" y="([\d.]+)" clip-path="url\(#k\d\)">([^<]*)<\/text>/g),
    ];
    expect(rows.map((row) => row[2])).toEqual(['first line', 'second line', 'third']);
    const ys = rows.map((row) => Number(row[1]));
    expect(ys[0]!).toBeLessThan(ys[1]!);
    expect(ys[1]!).toBeLessThan(ys[2]!);
    expect(body.match(/<g class="v\d" opacity="0">/g)).toHaveLength(2);
  });

  it('places every typed character at its measured Verdana position (clip edges fall between glyphs)', async () => {
    const { body } = await request('/typing?lines=Wi');
    const xs = /<text x="([\d. ]+)" y="[\d.]+" clip-path/.exec(body)![1]!.split(' ').map(Number);
    expect(xs).toHaveLength(2);
    // anafanafo's 11 px Verdana table (shields.io's), scaled to the default 20 px.
    expect(xs[1]! - xs[0]!).toBeCloseTo((anafanafo('W', { font: '11px Verdana' }) * 20) / 11, 2);
  });

  it('typing fits the card width to the longest line', async () => {
    const short = await request('/typing?lines=ab');
    const long = await request('/typing?lines=ab;a+much+longer+line+than+the+first');
    const width = (svg: string) => Number(/width="([\d.]+)"/.exec(svg)![1]);
    expect(width(long.body)).toBeGreaterThan(width(short.body) + 150);
  });

  it('uses the requested cursor and duration', async () => {
    const typing = await request('/typing?cursor=_');
    expect(typing.body).toContain('>_</text>');
    const text = await request('/text?animation=fade&duration=7.5');
    expect(text.body).toContain('animation:a 7.5s');
  });
});
