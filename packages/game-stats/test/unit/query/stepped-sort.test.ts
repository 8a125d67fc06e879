/**
 * @module Tests: the stepped sort sorts like the native one, in steps of bounded size.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { sortInSteps } from '../../../src/query/stepped-sort.js';

test('sortInSteps equals Float64Array#sort and never handles more than a step of values at once', () => {
  fc.assert(
    fc.property(
      fc.array(fc.double({ noNaN: true }), { maxLength: 300 }),
      fc.integer({ min: 1, max: 40 }),
      (input, step) => {
        const expected = Float64Array.from(input).sort();
        const steps = sortInSteps(Float64Array.from(input), step);
        let next = steps.next();
        for (; !next.done; next = steps.next()) {
          expect(next.value).toBeGreaterThan(0);
          expect(next.value).toBeLessThanOrEqual(step);
        }
        // -0 and 0 compare equal, as everywhere ranks are computed.
        expect([...next.value].map((value) => value + 0)).toEqual([...expected].map((value) => value + 0));
      },
    ),
  );
});
