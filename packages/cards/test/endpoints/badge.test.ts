/**
 * @module /badge: shields.io geometry (widths compared with badge-maker), colours, styles,
 * animations, validation.
 */
import { makeBadge } from 'badge-maker';
import { describe, expect, it } from 'vitest';
import { expectBadRequest, expectRenderableSvg, testApp } from '../support/svg.js';

const request = testApp();

function svgWidth(svg: string): number {
  return Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1]);
}

/** Widths of the label and message rectangles, in document order. */
function rectWidths(svg: string): number[] {
  return [...svg.matchAll(/<rect (?:x="[\d.]+" )?width="([\d.]+)" height="(?:20|28)" fill="#/g)].map((m) =>
    Number(m[1]),
  );
}

const samples: [string, string][] = [
  ['build', 'passing'],
  ['coverage', '98.5%'],
  ['npm', 'v1.2.3'],
  ['license', 'MIT'],
  ['WWWWWW', 'iiiiiii'],
  ['downloads', '12k/month'],
  ['Ünïcødé', 'ok ✓'],
];

describe('/badge geometry matches badge-maker', () => {
  for (const style of ['flat', 'flat-square', 'for-the-badge'] as const) {
    for (const [label, message] of samples) {
      it(`${style}: ${label} | ${message}`, async () => {
        const query = new URLSearchParams({ label, message, style, color: 'blue' });
        const ours = await request(`/badge?${query}`);
        expect(ours.status).toBe(200);
        const theirs = makeBadge({ label, message, color: 'blue', style });
        expect(svgWidth(ours.body)).toBe(svgWidth(theirs));
        expect(rectWidths(ours.body)).toEqual(rectWidths(theirs));
        expectRenderableSvg(ours.body);
      });
    }
  }
});

describe('/badge parameters', () => {
  it('serves the same bytes at /badge and /api/badge', async () => {
    const plain = await request('/badge?label=a&message=b');
    const api = await request('/api/badge?label=a&message=b');
    expect(api.status).toBe(200);
    expect(api.body).toBe(plain.body);
  });

  it.each([
    ['success', '#4b0'],
    ['blue', '#007ec6'],
    ['error', '#dd4343'],
    ['warning', '#ea7233'],
    ['purple', '#8957e5'],
    ['gray', '#6e7681'],
  ])('maps color=%s to %s', async (name, hex) => {
    const response = await request(`/badge?color=${name}`);
    expect(response.status).toBe(200);
    expect(response.body).toContain(`fill="${hex}"`);
  });

  it.each(['none', 'shimmer', 'pulse', 'glow', 'bounce'])('animation=%s renders', async (animation) => {
    const response = await request(`/badge?animation=${animation}`);
    expect(response.status).toBe(200);
    expectRenderableSvg(response.body);
    if (animation === 'none') expect(response.body).not.toContain('<style>');
    else expect(response.body).toContain('@media (prefers-reduced-motion:reduce)');
  });

  it('uppercases for-the-badge text', async () => {
    const response = await request('/badge?style=for-the-badge&label=build&message=passing');
    expect(response.body).toContain('>BUILD</text>');
    expect(response.body).toContain('font-weight="bold">PASSING</text>');
  });

  it.each([
    ['color', 'color=green'],
    ['animation', 'animation=spin'],
    ['style', 'style=plastic'],
    ['label', `label=${'x'.repeat(101)}`],
    ['message', `message=${'x'.repeat(101)}`],
  ])('rejects a bad %s with a 400 card', async (parameter, query) => {
    expectBadRequest(await request(`/badge?${query}`), parameter);
  });

  it('accepts 100-character texts', async () => {
    const response = await request(`/badge?label=${'x'.repeat(100)}&message=${'y'.repeat(100)}`);
    expect(response.status).toBe(200);
  });
});
