/**
 * @module The /timeline card: the latest push, pull request and issue events, newest first,
 * with relative times.
 */
import type { TimelineEvent, TimelineKind } from '../github/fetchers/events.js';
import { svgDocument } from '../svg/document.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import type { Theme } from '../themes/index.js';
import { type IconName, icon, label } from './github-marks.js';

interface TimelineInput {
  login: string;
  events: Array<TimelineEvent & { when: string }>;
  theme: Theme;
}

const width = 480;
const rowHeight = 44;
const iconOf: Record<TimelineKind, IconName> = {
  push: 'commit',
  'pull-request': 'pull-request',
  issue: 'issue',
};

export function renderTimeline({ login, events, theme }: TimelineInput): string {
  const textX = framePadding + 30;
  const rows = events
    .map((event, index) => {
      const y = 62 + index * rowHeight;
      // The headline shares its row with the relative time: it gets what the time leaves.
      const whenWidth = measureText(event.when, { size: 11 });
      const headlineWidth = width - textX - framePadding - whenWidth - 12;
      const headline = `${event.action} in ${event.repository}`;
      const connector =
        index < events.length - 1
          ? `<path d="M${framePadding + 8} ${y + 8}v${rowHeight - 20}" stroke="${theme.border}"/>`
          : '';
      return `${connector}${icon(iconOf[event.kind], framePadding, y - 12, theme.icon)}${label(textX, y, headline, { fill: theme.text, size: 12, bold: true, maxWidth: headlineWidth })}${label(width - framePadding, y, event.when, { fill: theme.muted, size: 11, anchor: 'end' })}${event.title ? label(textX, y + 16, event.title, { fill: theme.muted, size: 11, maxWidth: width - textX - framePadding }) : ''}`;
    })
    .join('');
  const empty =
    events.length === 0
      ? label(framePadding, 62, 'No public activity in the last 90 days', { fill: theme.muted, size: 12 })
      : '';
  const height = 62 + Math.max(1, events.length) * rowHeight - 10;
  return svgDocument({
    width,
    height,
    title: `Recent activity of ${login}`,
    description:
      events.map((event) => `${event.action} in ${event.repository} ${event.when}`).join('; ') ||
      'No recent public activity',
    body: `${cardFrame({ width, height, theme, title: 'Recent activity' })}<g font-family="${fontFamily}">${rows}${empty}</g>`,
  });
}
