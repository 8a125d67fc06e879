/**
 * @module The snake's route: adjacent steps, never through its own body, every cell eaten,
 * lighter levels first, and a seamless loop that starts with the body in the margin.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SNAKE_LENGTH, solveSnake } from '../../src/insights/snake-solver.js';

function checkRoute(levels: number[][]) {
  const width = levels.length;
  const height = levels[0]?.length ?? 0;
  const { path, eatenAt } = solveSnake(levels);
  const at = (index: number) => path[(index + path.length) % path.length];
  for (let index = 0; index < path.length; index += 1) {
    const here = at(index);
    const next = at(index + 1);
    expect(Math.abs(here.x - next.x) + Math.abs(here.y - next.y)).toBe(1);
    expect(here.x >= -1 && here.x <= width && here.y >= -1 && here.y <= height).toBe(true);
    // The head never enters a cell its body still covers after the move (the tail's cell is
    // freed by the same move).
    for (let back = 1; back < SNAKE_LENGTH - 1; back += 1) {
      expect(at(index - back)).not.toEqual(next);
    }
  }
  const expected = levels.flatMap((column, x) =>
    column.flatMap((level, y) => (level > 0 ? [`${x},${y}`] : [])),
  );
  expect([...eatenAt.keys()].sort()).toEqual(expected.sort());
  // The first frame: head at (0, -1), body in the margin.
  expect(path[0]).toEqual({ x: 0, y: -1 });
  for (let back = 1; back < SNAKE_LENGTH; back += 1) {
    const cell = at(-back);
    expect(cell.x === -1 || cell.y === -1 || cell.x === width || cell.y === height).toBe(true);
  }
  return { path, eatenAt };
}

describe('solveSnake', () => {
  it('eats a small grid lightest level first', () => {
    // Column 0: levels 4, 0, 1; column 1: 2, 0, 0.
    const { eatenAt } = checkRoute([
      [4, 0, 1],
      [2, 0, 0],
    ]);
    const order = [...eatenAt.entries()].sort((a, b) => a[1] - b[1]).map(([cell]) => cell);
    expect(order).toEqual(['0,2', '1,0', '0,0']);
  });

  it('returns to the start on an empty grid', () => {
    const { path } = checkRoute(Array.from({ length: 5 }, () => Array.from({ length: 7 }, () => 0)));
    expect(path.length).toBeGreaterThanOrEqual(SNAKE_LENGTH);
  });

  it('solves any grid without crossing itself', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }).chain((width) =>
          fc.array(fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 7, maxLength: 7 }), {
            minLength: width,
            maxLength: width,
          }),
        ),
        (levels) => {
          checkRoute(levels);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('solves a full busy year quickly enough to render on request', () => {
    const levels = Array.from({ length: 53 }, (_, x) =>
      Array.from({ length: 7 }, (_, y) => (x * 7 + y * 3) % 5),
    );
    const { path } = checkRoute(levels);
    expect(path.length).toBeLessThan(2_000);
  });
});
