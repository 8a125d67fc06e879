/**
 * @module The /hours card: a 24-hour radial dial of commit times with the peak hour in the middle.
 */
import type { CommitHours } from '../insights/commit-hours.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame, framePadding, titleWidth } from '../svg/frame.js';
import { fontFamily } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { label } from './github-marks.js';

interface HoursInput {
  title: string;
  hours: CommitHours;
  timeZone: string;
  color: string;
  hideBorder: boolean;
  theme: Theme;
}

const inner = 44;
const outer = 104;

const hourText = (hour: number) => `${String(hour).padStart(2, '0')}:00`;

export function renderHours(input: HoursInput): string {
  const { theme, hours } = input;
  const width = Math.ceil(Math.max(300, titleWidth(input.title)));
  const cx = width / 2;
  const cy = 58 + outer + 6;
  const max = Math.max(1, ...hours.hours);
  const bars = hours.hours
    .map((count, hour) => {
      const angle = ((hour / 24) * 360 - 90) * (Math.PI / 180);
      const length = inner + 4 + (count / max) * (outer - inner - 4);
      const [x1, y1] = [cx + Math.cos(angle) * inner, cy + Math.sin(angle) * inner];
      const [x2, y2] = [cx + Math.cos(angle) * length, cy + Math.sin(angle) * length];
      const opacity = count === 0 ? '.25' : hour === hours.peak ? '1' : '.7';
      return `<path d="M${round(x1)} ${round(y1)}L${round(x2)} ${round(y2)}" stroke="${input.color}" stroke-width="7" stroke-linecap="round" stroke-opacity="${opacity}"><title>${hourText(hour)}: ${count} commits</title></path>`;
    })
    .join('');
  const ticks = [0, 6, 12, 18]
    .map((hour) => {
      const angle = ((hour / 24) * 360 - 90) * (Math.PI / 180);
      const x = cx + Math.cos(angle) * (outer + 12);
      const y = cy + Math.sin(angle) * (outer + 12) + 4;
      return label(x, y, String(hour), { fill: theme.muted, size: 10, anchor: 'middle' });
    })
    .join('');
  const peak = hours.peak === null ? 'no commits' : hourText(hours.peak);
  const centre = `${label(cx, cy + 2, peak, { fill: theme.title, size: hours.peak === null ? 11 : 16, bold: true, anchor: 'middle' })}${label(cx, cy + 18, 'peak', { fill: theme.muted, size: 10, anchor: 'middle' })}`;
  const height = cy + outer + 30;
  const footer = label(width - framePadding, height - 12, `${hours.total} commits · ${input.timeZone}`, {
    fill: theme.muted,
    size: 10,
    anchor: 'end',
  });
  return svgDocument({
    width,
    height,
    title: input.title,
    description: `Peak commit hour ${peak} (${input.timeZone}) over ${hours.total} commits. ${hours.hours.map((count, hour) => `${hour}h: ${count}`).join(', ')}`,
    body: `${cardFrame({ width, height, theme, title: input.title, hideBorder: input.hideBorder })}${bars}<g font-family="${fontFamily}">${ticks}${centre}${footer}</g>`,
  });
}
