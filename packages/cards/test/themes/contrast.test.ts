/**
 * @module Every theme is readable: text against its background meets WCAG AA (4.5:1), secondary
 * text and graphics (icons, accents, rings) at least 3:1. The transparent theme must work on
 * GitHub's white and dark pages at once, where about 4.3:1 is the best any one colour can do.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, themes } from '../../src/index.js';

/** GitHub's light and dark page backgrounds, for the transparent theme. */
const pageBackgrounds = ['#ffffff', '#0d1117'];

function worstContrast(color: string, background: string): number {
  const backgrounds = background === 'none' ? pageBackgrounds : [background];
  return Math.min(...backgrounds.map((page) => contrastRatio(color, page)));
}

describe.each(Object.values(themes))('theme $name', (theme) => {
  const textMinimum = theme.background === 'none' ? 4 : 4.5;

  it('has readable title and body text', () => {
    expect(worstContrast(theme.title, theme.background)).toBeGreaterThanOrEqual(textMinimum);
    expect(worstContrast(theme.text, theme.background)).toBeGreaterThanOrEqual(textMinimum);
  });

  it('has visible secondary text, icons, accents and rings', () => {
    for (const color of [theme.muted, theme.icon, theme.accent, theme.ring]) {
      expect(worstContrast(color, theme.background), color).toBeGreaterThanOrEqual(3);
    }
  });

  it('has a five-step graph scale whose busiest step stands out from the background', () => {
    expect(theme.graph).toHaveLength(5);
    expect(worstContrast(theme.graph[4], theme.background)).toBeGreaterThanOrEqual(3);
  });
});

it('computes contrast like WCAG (black on white is 21:1, a colour on itself 1:1)', () => {
  expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  expect(contrastRatio('#777', '#777777')).toBeCloseTo(1, 5);
});
