/**
 * @module One SVG for both colour schemes (`theme=auto`): the card drawn in a light and a dark
 * theme, merged so the light colours stay in the attributes (what a renderer without CSS media
 * queries, such as resvg, draws) and the dark ones come from a `prefers-color-scheme: dark`
 * rule of the SVG's own `<style>`.
 */
import { prefixIds } from './prefix-ids.js';

/** Attributes a theme colours; each is also a CSS property of the same name. */
const paintAttributes = new Set(['fill', 'stroke', 'stop-color', 'flood-color', 'color']);

// Neither part can run over a `<` it did not start at, so matching stays linear (scripts/redos.test.ts).
const tokenPattern = /<[^<>]*>|[^<]+/g;
const attributePattern = /\s([\w:-]+)="([^"]*)"/g;

function attributesOf(tag: string): Array<[string, string]> {
  return [...tag.matchAll(attributePattern)].map((match) => [match[1]!, match[2]!]);
}

/** `tag` with `name` added to its classes. */
function withClass(tag: string, name: string): string {
  if (/\sclass="/.test(tag)) return tag.replace(/\sclass="([^"]*)"/, ` class="$1 ${name}"`);
  const selfClosing = tag.endsWith('/>');
  const open = tag.slice(0, tag.length - (selfClosing ? 2 : 1)).trimEnd();
  return `${open} class="${name}"${selfClosing ? '/' : ''}>`;
}

/**
 * Merges the same card drawn twice, differing only in colours. Returns undefined when the two
 * differ otherwise (another layout, other shapes).
 */
function mergeByColour(light: string, dark: string): string | undefined {
  const lightTokens = light.match(tokenPattern) ?? [];
  const darkTokens = dark.match(tokenPattern) ?? [];
  if (lightTokens.length !== darkTokens.length) return undefined;
  const rules: string[] = [];
  const merged: string[] = [];
  for (const [index, token] of lightTokens.entries()) {
    const other = darkTokens[index]!;
    if (token === other) {
      merged.push(token);
      continue;
    }
    if (!token.startsWith('<')) {
      // Different text: only CSS may differ (a colour in a card's own rules).
      if (lightTokens[index - 1] !== '<style>') return undefined;
      merged.push(token);
      rules.push(other);
      continue;
    }
    const ours = attributesOf(token);
    const theirs = attributesOf(other);
    if (ours.length !== theirs.length) return undefined;
    const declarations: string[] = [];
    for (const [position, [name, value]] of ours.entries()) {
      const [otherName, otherValue] = theirs[position]!;
      if (name !== otherName) return undefined;
      if (value === otherValue) continue;
      if (!paintAttributes.has(name)) return undefined;
      declarations.push(`${name}:${otherValue}`);
    }
    const className = `cs${rules.length}`;
    rules.push(`.${className}{${declarations.join(';')}}`);
    merged.push(withClass(token, className));
  }
  return withStyle(merged.join(''), rules.join(''), '');
}

/** `svg` with `css` and `darkCss` (inside the dark media query) in a `<style>` after its title. */
function withStyle(svg: string, darkCss: string, css: string): string {
  const style = `<style>${css}@media (prefers-color-scheme:dark){${darkCss}}</style>`;
  const afterTitle = svg.indexOf('</title>');
  const at = afterTitle >= 0 ? afterTitle + '</title>'.length : svg.indexOf('>') + 1;
  return `${svg.slice(0, at)}${style}${svg.slice(at)}`;
}

/** What follows the title (and description) of a card: its drawing. */
function drawingOf(svg: string): string {
  const end = svg.lastIndexOf('</svg>');
  const desc = svg.indexOf('</desc>');
  const start = desc >= 0 ? desc + '</desc>'.length : svg.indexOf('</title>') + '</title>'.length;
  return svg.slice(start, end);
}

/**
 * Both drawings in one SVG, one shown per scheme: for cards whose light and dark forms differ
 * in shape (skill-icons' artwork). The dark copy's element ids are prefixed so none repeats.
 */
function stackBoth(light: string, dark: string): string {
  const darkDrawing = prefixIds(drawingOf(dark), 'dk-');
  const lightDrawing = drawingOf(light);
  const head = light.slice(0, light.length - lightDrawing.length - '</svg>'.length);
  return withStyle(
    `${head}<g class="csl">${lightDrawing}</g><g class="csd">${darkDrawing}</g></svg>`,
    '.csl{display:none}.csd{display:inline}',
    '.csd{display:none}',
  );
}

/** The card following the viewer's colour scheme: light by default, dark when they prefer it. */
export function followColorScheme(light: string, dark: string): string {
  return mergeByColour(light, dark) ?? stackBoth(light, dark);
}
