/**
 * @module Tests: the checks that run on client-given paths, ref names and task titles.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { parseRelativePath } from '../../src/files/relative-path.js';
import { isInside } from '../../src/files/rooted-path.js';
import { checkRefName } from '../../src/git/ref-name.js';
import { taskBranchName, titleSlug } from '../../src/tasks/branch-name.js';

describe('parseRelativePath', () => {
  test('normalizes empty, dot and doubled separators', () => {
    expect(parseRelativePath('')).toEqual([]);
    expect(parseRelativePath('./')).toEqual([]);
    expect(parseRelativePath('a//b/./c/')).toEqual(['a', 'b', 'c']);
  });

  test('never returns a segment that could climb or is empty, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '.', '/', '\\', '\0', 'é', ' ') }), (input) => {
        let segments: string[];
        try {
          segments = parseRelativePath(input);
        } catch {
          return;
        }
        for (const segment of segments) {
          expect(segment).not.toBe('..');
          expect(segment).not.toBe('.');
          expect(segment).not.toBe('');
          expect(segment).not.toMatch(/[/\\\0]/);
        }
      }),
    );
  });

  test('refuses over-long paths and segments', () => {
    expect(() => parseRelativePath('a'.repeat(256))).toThrow(/255/);
    expect(() => parseRelativePath('a/'.repeat(2049))).toThrow(/4096/);
  });
});

describe('isInside', () => {
  test('the root itself and what is below it, never a sibling sharing the prefix', () => {
    expect(isInside('/srv/proj', '/srv/proj')).toBe(true);
    expect(isInside('/srv/proj', '/srv/proj/a/b')).toBe(true);
    expect(isInside('/srv/proj', '/srv/proj-evil/a')).toBe(false);
    expect(isInside('/srv/proj', '/srv')).toBe(false);
  });
});

describe('checkRefName', () => {
  test('accepts ordinary branch names and refuses option-like or malformed ones', () => {
    for (const good of ['main', 'feature/one', 'agent/12-fix-login', 'v1.2'])
      expect(checkRefName(good)).toBe(good);
    for (const bad of [
      '-f',
      '--force',
      'a..b',
      'a b',
      'x~1',
      'x^',
      'a:b',
      'a/',
      '/a',
      'a.lock',
      '.hidden',
      'a/.b',
      'x\u0001',
    ])
      expect(() => checkRefName(bad), bad).toThrow();
  });
});

describe('task branch names', () => {
  test('slug of the title after the id, lower-case ASCII, at most 48 characters', () => {
    expect(taskBranchName(7, 'Fix the Login Bug!')).toBe('agent/7-fix-the-login-bug');
    expect(titleSlug('Café — résumé')).toBe('cafe-resume');
    expect(titleSlug('x'.repeat(100))).toHaveLength(48);
    expect(titleSlug('a '.repeat(40))).not.toMatch(/-$/);
    expect(titleSlug('!!!')).toBe('task');
  });

  test('every slug is a valid ref part', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(1_000_000), (title, id) => {
        expect(() => checkRefName(taskBranchName(id + 1, title))).not.toThrow();
      }),
    );
  });
});
