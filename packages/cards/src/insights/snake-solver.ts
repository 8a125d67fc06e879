/**
 * @module The snake's route over a contribution grid: it eats the cells level by level (lightest
 * first), never enters its own body, and ends where it started so the animation loops seamlessly.
 *
 * The walkable area is the grid plus a one-cell margin ring. The snake starts in the margin with
 * its head at (0, -1); its body at any step is the head's previous positions, so one path animates every
 * segment (each segment replays the head's path a few steps late).
 */

export interface Cell {
  x: number;
  y: number;
}

export interface SnakeRoute {
  /** Head positions, one per step; the step after the last is `path[0]` again. */
  path: Cell[];
  /** Step index at which each eaten cell was eaten, keyed `x,y`. */
  eatenAt: Map<string, number>;
}

export const SNAKE_LENGTH = 4;
/** Cost of entering a cell of a higher level than the one being eaten: avoided, never forbidden. */
const DETOUR_COST = 1_000;

/** The body behind the head at the first frame, neck first: up the left margin. */
const START_BODY: readonly Cell[] = [
  { x: -1, y: -1 },
  { x: -1, y: 0 },
  { x: -1, y: 1 },
];

const key = (x: number, y: number) => `${x},${y}`;
const steps: readonly Cell[] = [
  { x: 1, y: 0 },
  { x: 0, y: 1 },
  { x: -1, y: 0 },
  { x: 0, y: -1 },
];

/** A minimal binary heap of [cost, node] pairs. */
class MinHeap {
  private readonly items: Array<[number, number]> = [];

  get size(): number {
    return this.items.length;
  }

  push(item: [number, number]): void {
    const items = this.items;
    items.push(item);
    let index = items.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (items[parent][0] <= item[0]) break;
      items[index] = items[parent];
      index = parent;
    }
    items[index] = item;
  }

  pop(): [number, number] | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let index = 0;
    for (;;) {
      const left = index * 2 + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && items[right][0] < items[left][0] ? right : left;
      if (items[child][0] >= last[0]) break;
      items[index] = items[child];
      index = child;
    }
    items[index] = last;
    return top;
  }
}

/**
 * Solves the route for a grid of `levels[x][y]` (0 = empty, 1-4 = GitHub's quartiles).
 */
export function solveSnake(levels: ReadonlyArray<ReadonlyArray<number>>): SnakeRoute {
  const width = levels.length;
  const height = levels[0]?.length ?? 7;
  // Area coordinates: x in [-1, width], y in [-1, height]; node index = (x + 1) * areaHeight + (y + 1).
  const areaWidth = width + 2;
  const areaHeight = height + 2;
  const nodeOf = (x: number, y: number) => (x + 1) * areaHeight + (y + 1);
  const cellOf = (node: number): Cell => ({
    x: Math.floor(node / areaHeight) - 1,
    y: (node % areaHeight) - 1,
  });
  const inArea = (x: number, y: number) => x >= -1 && x <= width && y >= -1 && y <= height;
  const isMargin = (x: number, y: number) => x === -1 || y === -1 || x === width || y === height;

  const remaining = new Map<string, number>();
  levels.forEach((column, x) => {
    column.forEach((level, y) => {
      if (level > 0) remaining.set(key(x, y), level);
    });
  });

  const path: Cell[] = [{ x: 0, y: -1 }];
  const eatenAt = new Map<string, number>();
  const head = () => path[path.length - 1];

  function walk(route: readonly Cell[]): void {
    for (const cell of route) {
      path.push(cell);
      const cellKey = key(cell.x, cell.y);
      if (remaining.has(cellKey)) {
        remaining.delete(cellKey);
        eatenAt.set(cellKey, path.length - 1);
      }
    }
  }

  /** Cells the head must not enter now: the neck and the segment after it. */
  function bodyObstacles(): Set<number> {
    const blocked = new Set<number>();
    for (let back = 1; back < SNAKE_LENGTH - 1; back += 1) {
      const cell = path[path.length - 1 - back] ?? START_BODY[back - path.length];
      if (cell !== undefined) blocked.add(nodeOf(cell.x, cell.y));
    }
    return blocked;
  }

  /** Cheapest route from the head to the nearest node accepted by `isTarget`. */
  function routeTo(
    isTarget: (x: number, y: number) => boolean,
    costOf: (x: number, y: number) => number,
    alsoBlocked: readonly number[] = [],
  ): Cell[] | undefined {
    const start = head();
    const startNode = nodeOf(start.x, start.y);
    const blocked = bodyObstacles();
    for (const node of alsoBlocked) blocked.add(node);
    const cost = new Float64Array(areaWidth * areaHeight).fill(Number.POSITIVE_INFINITY);
    const previous = new Int32Array(areaWidth * areaHeight).fill(-1);
    const heap = new MinHeap();
    cost[startNode] = 0;
    heap.push([0, startNode]);
    while (heap.size > 0) {
      const [spent, node] = heap.pop() as [number, number];
      if (spent > cost[node]) continue;
      const cell = cellOf(node);
      if (node !== startNode && isTarget(cell.x, cell.y)) {
        const route: Cell[] = [];
        for (let at = node; at !== startNode; at = previous[at]) route.unshift(cellOf(at));
        return route;
      }
      for (const step of steps) {
        const x = cell.x + step.x;
        const y = cell.y + step.y;
        if (!inArea(x, y)) continue;
        const next = nodeOf(x, y);
        if (blocked.has(next)) continue;
        const total = spent + costOf(x, y);
        if (total < cost[next]) {
          cost[next] = total;
          previous[next] = node;
          heap.push([total, next]);
        }
      }
    }
    return undefined;
  }

  for (let level = 1; level <= 4; level += 1) {
    const costOf = (x: number, y: number) => ((remaining.get(key(x, y)) ?? 0) > level ? DETOUR_COST : 1);
    for (;;) {
      const route = routeTo((x, y) => remaining.get(key(x, y)) === level, costOf);
      if (route === undefined) break;
      walk(route);
    }
  }

  returnToStart();
  return { path, eatenAt };

  /**
   * Back to the start through the left margin, arriving upwards along it so that the body of
   * the loop's first frame, (-1,-1) (-1,0) (-1,1), lies in the margin and never over the grid.
   */
  function returnToStart(): void {
    const approach = [nodeOf(-1, -1), nodeOf(-1, 0), nodeOf(-1, 1)];
    const isEntry = (x: number, y: number) => x === -1 && y === START_BODY.length - 1;
    const marginCost = (x: number, y: number) => (isMargin(x, y) ? DETOUR_COST : 1);
    let route = routeTo(isEntry, marginCost, approach);
    // The body may lie on the entry cell itself: step aside until it has moved on.
    for (let aside = 0; route === undefined && aside < SNAKE_LENGTH * 2; aside += 1) {
      walk(routeTo(() => true, marginCost, approach) ?? []);
      route = routeTo(isEntry, marginCost, approach);
    }
    walk([...(route ?? []), ...START_BODY.slice().reverse()]);
  }
}
