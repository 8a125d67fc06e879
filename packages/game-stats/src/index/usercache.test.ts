/**
 * @module Tests: usercache entries survive the trip through columns (how the worker hands them over).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { packUsercache, parseUsercache, unpackUsercache } from './usercache.js';

test('packed into columns and unpacked, the parsed entries are the same, whatever the names hold', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          uuid: fc.uuid(),
          name: fc.string({ minLength: 1, maxLength: 64, unit: 'binary' }),
          expiresOn: fc.constantFrom('2026-12-24 10:00:00 +0000', 'soon'),
        }),
        { maxLength: 30 },
      ),
      fc.nat(3),
      (items, junk) => {
        const text = JSON.stringify([...items, ...Array.from({ length: junk }, () => ({ name: 5 }))]);
        const parsed = parseUsercache(text);
        const columns = structuredClone(packUsercache(parsed));
        expect({ entries: [...unpackUsercache(columns)], rejected: columns.rejected }).toEqual(parsed);
        expect(parsed.rejected).toBe(junk);
      },
    ),
  );
});
