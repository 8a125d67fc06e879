/**
 * @module The /repo card: name with archived/template markers, description, language, stars,
 * forks and licence.
 */
import type { Repository } from '../github/fetchers/repository.js';
import { round, svgDocument } from '../svg/document.js';
import { cardFrame, framePadding } from '../svg/frame.js';
import { fontFamily, measureText } from '../svg/measure.js';
import { wrapText } from '../svg/wrap.js';
import type { Theme } from '../themes/index.js';
import { formatCount, icon, label } from './github-marks.js';

interface RepoInput {
  repository: Repository;
  showDescription: boolean;
  theme: Theme;
  /** Name drawn at the top; default `owner/name`. */
  title?: string;
  /** Most description lines; default 3. */
  descriptionLines?: number;
  hideBorder?: boolean;
  /** Corner radius, px. */
  radius?: number;
  /** Smallest card width, px; default 400. */
  minWidth?: number;
  /** The markers' words replacing ours (a translation). */
  labels?: { archived?: string | undefined; template?: string | undefined };
}

const width = 400;
const lineHeight = 18;

function pill(x: number, text: string, theme: Theme): { markup: string; width: number } {
  const textWidth = measureText(text, { size: 11 });
  const pillWidth = textWidth + 14;
  return {
    markup: `<rect x="${round(x)}" y="21" width="${round(pillWidth)}" height="18" rx="9" fill="none" stroke="${theme.muted}"/>${label(x + 7, 34, text, { fill: theme.muted, size: 11 })}`,
    width: pillWidth,
  };
}

export function renderRepo(input: RepoInput): string {
  const { repository, showDescription, theme } = input;
  const name = input.title ?? repository.nameWithOwner;
  const nameX = framePadding + 24;
  const markers = [
    repository.isArchived ? (input.labels?.archived ?? 'Archived') : '',
    repository.isTemplate ? (input.labels?.template ?? 'Template') : '',
  ].filter(Boolean);
  const nameWidth = measureText(name, { size: 15, bold: true });
  let pills = '';
  let pillX = nameX + nameWidth + 10;
  for (const marker of markers) {
    const drawn = pill(pillX, marker, theme);
    pills += drawn.markup;
    pillX += drawn.width + 6;
  }
  const cardWidth = Math.ceil(Math.max(width, input.minWidth ?? 0, pillX + framePadding));
  const lines =
    showDescription && repository.description
      ? wrapText(repository.description, {
          maxWidth: cardWidth - 2 * framePadding,
          size: 13,
          maxLines: input.descriptionLines ?? 3,
        })
      : [];
  const description = lines
    .map((line, index) => label(framePadding, 66 + index * lineHeight, line, { fill: theme.text, size: 13 }))
    .join('');
  const footerY = 66 + Math.max(lines.length, showDescription ? 1 : 0) * lineHeight + 14;
  const footer: string[] = [];
  let x = framePadding;
  if (repository.primaryLanguage) {
    footer.push(
      `<circle cx="${x + 6}" cy="${footerY - 4}" r="6" fill="${repository.primaryLanguage.color ?? theme.muted}"/>`,
    );
    footer.push(label(x + 17, footerY, repository.primaryLanguage.name, { fill: theme.text, size: 12 }));
    x += 17 + measureText(repository.primaryLanguage.name, { size: 12 }) + 18;
  }
  for (const [name, value] of [
    ['star', repository.stargazerCount],
    ['fork', repository.forkCount],
  ] as const) {
    footer.push(icon(name, x, footerY - 13, theme.icon));
    footer.push(label(x + 20, footerY, formatCount(value), { fill: theme.text, size: 12 }));
    x += 20 + measureText(formatCount(value), { size: 12 }) + 18;
  }
  const licence =
    repository.licenseInfo?.spdxId && repository.licenseInfo.spdxId !== 'NOASSERTION'
      ? repository.licenseInfo.spdxId
      : repository.licenseInfo?.name;
  if (licence) footer.push(label(x, footerY, licence, { fill: theme.muted, size: 12 }));
  const height = footerY + 20;
  const summary = [
    repository.description ?? '',
    repository.primaryLanguage?.name ?? '',
    `${repository.stargazerCount} stars`,
    `${repository.forkCount} forks`,
    licence ?? '',
    ...markers,
  ].filter(Boolean);
  return svgDocument({
    width: cardWidth,
    height,
    title: repository.nameWithOwner,
    description: summary.join(', '),
    body: `${cardFrame({ width: cardWidth, height, theme, hideBorder: input.hideBorder, radius: input.radius })}<g font-family="${fontFamily}">${icon('repo', framePadding, 22, theme.icon)}${label(nameX, 35, name, { fill: theme.title, size: 15, bold: true })}${pills}${description}${footer.join('')}</g>`,
  });
}
