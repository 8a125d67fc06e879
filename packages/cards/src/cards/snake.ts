/**
 * @module The /snake card: the contribution calendar eaten by a snake, as pure CSS keyframes (no
 * script, no SMIL). Each eaten cell flips to the empty colour when the head reaches it; the four
 * segments share one path keyframe and trail the head by one step each (negative delays).
 * Without animation (reduced motion, image converters) the full calendar and the resting snake
 * show.
 */
import type { ContributionGrid } from '../insights/contribution-grid.js';
import { type Cell, SNAKE_LENGTH, type SnakeRoute } from '../insights/snake-solver.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame } from '../svg/frame.js';
import { reducedMotionCss } from '../svg/motion.js';
import type { Theme } from '../themes/index.js';

interface SnakeInput {
  login: string;
  grid: ContributionGrid;
  route: SnakeRoute;
  /** Seconds per loop. */
  duration: number;
  color: string;
  title: string;
  hideBorder: boolean;
  theme: Theme;
}

const cellSize = 16;
const dotSize = 12;
/** Head first; the body narrows towards the tail. */
const segmentSizes = [13, 12, 11, 9] as const;

/** A keyframe offset with three decimals, trimmed ("12.5%", "0%"). */
function percent(value: number): string {
  return `${Number(value.toFixed(3))}%`;
}

export function renderSnake(input: SnakeInput): string {
  const { grid, route, theme } = input;
  const top = input.title ? 40 : 0;
  const width = (grid.length + 2) * cellSize;
  const height = 9 * cellSize + top + 4;
  const steps = route.path.length;
  const toPixel = (cell: Cell) => ({ x: (cell.x + 1) * cellSize, y: (cell.y + 1) * cellSize + top });

  const keyframes: string[] = [];
  const cells = grid
    .flatMap((week, x) =>
      week.map((day, y) => {
        if (day === null) return '';
        const { x: px, y: py } = toPixel({ x, y });
        const offset = (cellSize - dotSize) / 2;
        const fill = theme.graph[day.level];
        const eatenAt = route.eatenAt.get(`${x},${y}`);
        let style = '';
        if (eatenAt !== undefined) {
          const name = `e${x}_${y}`;
          const at = (eatenAt / steps) * 100;
          keyframes.push(
            `@keyframes ${name}{0%,${percent(at)}{fill:${fill}}${percent(Math.min(100, at + 0.001))},100%{fill:${theme.graph[0]}}}`,
          );
          style = ` class="c" style="animation-name:${name}"`;
        }
        return `<rect x="${px + offset}" y="${py + offset}" width="${dotSize}" height="${dotSize}" rx="2" fill="${fill}"${style}/>`;
      }),
    )
    .join('');

  // One path keyframe; frames in the middle of a straight run are implied by linear timing.
  const frames: string[] = [];
  for (let index = 0; index <= steps; index += 1) {
    const here = route.path[index % steps];
    const before = route.path[(index - 1 + steps) % steps];
    const after = route.path[(index + 1) % steps];
    const straight = here.x - before.x === after.x - here.x && here.y - before.y === after.y - here.y;
    if (index !== 0 && index !== steps && straight) continue;
    const { x, y } = toPixel(here);
    frames.push(`${percent((index / steps) * 100)}{transform:translate(${x}px,${y}px)}`);
  }
  keyframes.push(`@keyframes s{${frames.join('')}}`);

  const stepSeconds = input.duration / steps;
  const segments = segmentSizes
    .slice(0, SNAKE_LENGTH)
    .map((size, index) => {
      // At rest the body lies behind the head along the end of the loop (in the margin).
      const rest = toPixel(route.path[(steps - index) % steps]);
      const inset = (cellSize - size) / 2;
      // Milliseconds with two decimals: a step can be a few ms long.
      const delay = index === 0 ? 0 : Number(((index * stepSeconds - input.duration) * 1000).toFixed(2));
      return `<rect class="s" x="${inset}" y="${inset}" width="${size}" height="${size}" rx="${round(size / 3)}" fill="${input.color}" stroke="${theme.text}" stroke-opacity=".8" transform="translate(${rest.x} ${rest.y})" style="animation-delay:${delay}ms"/>`;
    })
    .reverse()
    .join('');

  const css = `.c{animation:${input.duration}s linear infinite}.s{animation:s ${input.duration}s linear infinite}${keyframes.join('')}${reducedMotionCss}`;
  const frame = cardFrame({
    width,
    height,
    theme,
    hideBorder: input.hideBorder,
    ...(input.title ? { title: input.title } : {}),
  });
  return svgDocument({
    width,
    height,
    title: input.title || `${input.login}'s contribution snake`,
    description: `A snake eating ${route.eatenAt.size} contribution days of ${input.login}, one loop every ${input.duration} s.`,
    css,
    body: `${frame}${cells}${segments}`,
  });
}
