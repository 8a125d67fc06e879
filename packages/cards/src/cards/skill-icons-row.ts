/**
 * @module skill-icons' row as skillicons.dev draws it: 256-unit icons on a 300-unit grid (44
 * units apart), `perLine` a row, scaled so an icon is 48 px; no frame (each icon has its tile).
 */
import { type BrandIcon, placeIcon } from '../brands/brand-icon.js';
import type { SkillIconArtwork, SkillIconsTheme } from '../brands/skill-icons-set.js';
import { round, svgDocument } from '../svg/document.js';
import { visibleOn } from '../themes/index.js';

/** Their grid: an icon is 256 units, a cell 300. */
const iconUnits = 256;
const cellUnits = 300;
/** Their icons are 48 px. */
const iconPixels = 48;

/** Their tile colours, for logos drawn here from simple-icons (ids outside their set). */
const tiles: Record<SkillIconsTheme, { background: string; fallback: string }> = {
  dark: { background: '#242938', fallback: '#ffffff' },
  light: { background: '#f4f2ed', fallback: '#242938' },
};

export type SkillIconsCell = { artwork: SkillIconArtwork; title: string } | { logo: BrandIcon };

/** A simple-icons logo on a tile of theirs, in the 256-unit box. */
function logoTile(logo: BrandIcon, theme: SkillIconsTheme): string {
  const tile = tiles[theme];
  const color = logo.hex ? visibleOn(logo.hex, tile.background, tile.fallback) : tile.fallback;
  return `<rect width="${iconUnits}" height="${iconUnits}" rx="60" fill="${tile.background}"/>${placeIcon(logo, 48, 48, 160, color)}`;
}

export function renderSkillIconsRow(
  cells: readonly SkillIconsCell[],
  theme: SkillIconsTheme,
  perLine: number,
): string {
  const columns = Math.max(1, Math.min(perLine, cells.length));
  const rows = Math.max(1, Math.ceil(cells.length / perLine));
  const widthUnits = columns * cellUnits - (cellUnits - iconUnits);
  const heightUnits = rows * cellUnits - (cellUnits - iconUnits);
  const scale = iconPixels / iconUnits;
  const drawn = cells.map((cell, index) => {
    const x = (index % perLine) * cellUnits;
    const y = Math.floor(index / perLine) * cellUnits;
    const body = 'artwork' in cell ? cell.artwork.body : logoTile(cell.logo, theme);
    return `<g transform="translate(${x} ${y})">${body}</g>`;
  });
  return svgDocument({
    width: round(widthUnits * scale),
    height: round(heightUnits * scale),
    title: `Skills: ${cells.map((cell) => ('artwork' in cell ? cell.title : cell.logo.title)).join(', ')}`,
    body: `<g transform="scale(${round(scale * 10_000) / 10_000})">${drawn.join('')}</g>`,
  });
}
