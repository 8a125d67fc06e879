/**
 * @module Sorting in bounded steps: a numeric sort of 100,000 values takes tens of milliseconds
 * in one go, too long for an event loop that answers requests meanwhile. Chunks of `step` values
 * are sorted natively, then merged pairwise, at most `step` values per step. The generator yields
 * the number of values handled in each step, and returns the sorted array.
 */

/**
 * Sorts `values` ascending, as `Float64Array#sort` does (NaN excepted: the values must not hold
 * any). `values` is used as one of the two merge buffers; read the result from the return value.
 */
export function* sortInSteps(values: Float64Array, step: number): Generator<number, Float64Array> {
  const length = values.length;
  const chunk = Math.max(1, Math.floor(step));
  for (let start = 0; start < length; start += chunk) {
    const end = Math.min(length, start + chunk);
    values.subarray(start, end).sort();
    yield end - start;
  }
  if (length <= chunk) return values;
  let source = values;
  let target: Float64Array = new Float64Array(length);
  /** Values merged since the last yield. */
  let done = 0;
  for (let width = chunk; width < length; width *= 2) {
    for (let left = 0; left < length; left += 2 * width) {
      const middle = Math.min(left + width, length);
      const right = Math.min(left + 2 * width, length);
      let first = left;
      let second = middle;
      let out = left;
      while (out < right) {
        const stop = Math.min(right, out + chunk - done);
        done += stop - out;
        while (out < stop) {
          if (second >= right || (first < middle && source[first]! <= source[second]!))
            target[out++] = source[first++]!;
          else target[out++] = source[second++]!;
        }
        if (done >= chunk) {
          yield done;
          done = 0;
        }
      }
    }
    [source, target] = [target, source];
  }
  if (done > 0) yield done;
  return source;
}
