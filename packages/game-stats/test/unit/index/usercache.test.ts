/**
 * @module Tests: usercache entries survive the trip through columns (how the worker hands them over).
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { packUsercache, parseUsercache, unpackUsercache } from '../../../src/index/usercache.js';

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

test("the game's expiresOn (yyyy-MM-dd HH:mm:ss Z) dates an entry a month before it expires", () => {
  const { entries } = parseUsercache(
    JSON.stringify([
      { name: 'A', uuid: '00000000-0000-4000-8000-000000000001', expiresOn: '2026-12-24 10:00:00 +0000' },
      { name: 'B', uuid: '00000000-0000-4000-8000-000000000002', expiresOn: '2026-12-24 10:00:00 -0130' },
    ]),
  );
  expect(entries.map((entry) => new Date(entry.seenAt).toISOString())).toEqual([
    '2026-11-24T10:00:00.000Z',
    '2026-11-24T11:30:00.000Z',
  ]);
});
