/**
 * @module The /views card: name, public bio, followers, repositories and the developer score.
 */

import { svgDocument } from '../svg/document.js';
import { cardFrame, framePadding, titleSize } from '../svg/frame.js';
import { fontFamily } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';
import { formatCount, icon, label, progressRing } from './github-marks.js';

interface ViewsInput {
  login: string;
  name: string | null;
  bio: string | null;
  followers: number;
  repositories: number;
  score: number;
  theme: Theme;
}

const width = 450;
const bioWidth = 290;

export function renderViews(input: ViewsInput): string {
  const { theme } = input;
  const full = input.name ? `${input.name} (@${input.login})` : `@${input.login}`;
  // The heading shares the top row with the score ring: long names end with an ellipsis.
  const [heading = full] = wrapText(full, {
    maxWidth: bioWidth + 20,
    size: titleSize,
    bold: true,
    maxLines: 1,
  });
  const bio = wrapText(input.bio?.trim() || 'No public bio.', { maxWidth: bioWidth, size: 12, maxLines: 3 });
  const bioMarkup = bio
    .map((line, index) =>
      label(framePadding, 60 + index * 17, line, { fill: input.bio ? theme.text : theme.muted, size: 12 }),
    )
    .join('');
  const countsY = 60 + bio.length * 17 + 22;
  const counts = `${icon('people', framePadding, countsY - 13, theme.icon)}${label(framePadding + 22, countsY, `${formatCount(input.followers)} followers`, { fill: theme.text, size: 13 })}${icon('repo', framePadding + 150, countsY - 13, theme.icon)}${label(framePadding + 172, countsY, `${formatCount(input.repositories)} repositories`, { fill: theme.text, size: 13 })}`;
  const height = Math.max(countsY + 22, 150);
  const cx = width - framePadding - 50;
  const cy = 78;
  const score = `${progressRing(cx, cy, 36, input.score / 100, theme.ring)}${label(cx, cy + 8, String(input.score), { fill: theme.title, size: 22, bold: true, anchor: 'middle' })}${label(cx, cy + 54, 'developer score', { fill: theme.muted, size: 10, anchor: 'middle' })}`;
  return svgDocument({
    width,
    height,
    title: full,
    description: `${input.bio ?? 'No public bio.'} ${input.followers} followers, ${input.repositories} public repositories, developer score ${input.score} of 100.`,
    body: `${cardFrame({ width, height, theme, title: heading })}<g font-family="${fontFamily}">${bioMarkup}${counts}${score}</g>`,
  });
}
