/**
 * @module skill-icons (skillicons.dev) drop-in: `/icons?i=js,html,css&theme=light&perline=3`.
 * Every id and short name of theirs is drawn with their own artwork (`-dark`/`-light` variant
 * by `theme`), laid out as they do; other ids are looked up as simple-icons slugs (every slug on
 * Node, see `LogoCatalogue`) and drawn on a tile of theirs, and ids found nowhere are left out
 * (the row keeps the others), never an error.
 */

import { loadSkillIconsSet, type SkillIconsSet } from '../brands/skill-icons-set.js';
import { resolveSkill, skillIcons } from '../brands/skills.js';
import { renderSkillIconsRow, type SkillIconsCell } from '../cards/skill-icons-row.js';
import { withAutoTheme } from '../http/auto-theme.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { lenient, lenientNumber, readList } from './lenient.js';
import { findLogo, readLogoSlug } from './simple-icons-logos.js';

/** Their `perline`: 1-50, default 15. */
const defaultPerLine = 15;
/** Icons read from `i` (`all` draws the whole set). */
const maxIcons = 60;

/** What `i` lists: names to resolve when drawing (the set loads then), or `all`. */
type IconNames = readonly string[] | 'all';

function readNames(raw: string): IconNames {
  return raw.toLowerCase() === 'all' ? 'all' : readList(raw, maxIcons);
}

/** An id of theirs (drawn with their artwork), or a simple-icons slug to look up when drawing. */
type IconId = { id: string } | { slug: string };

function resolveIcons(names: IconNames, set: SkillIconsSet): IconId[] {
  if (names === 'all') return set.ids.map((id) => ({ id }));
  const ids: IconId[] = [];
  const seen = new Set<string>();
  for (const name of names) {
    const id = set.resolve(name);
    const slug = id === undefined ? readLogoSlug(name) : undefined;
    const seenAs = id ?? `slug:${slug}`;
    if ((id === undefined && slug === undefined) || seen.has(seenAs)) continue;
    seen.add(seenAs);
    ids.push(id === undefined ? { slug: slug! } : { id });
  }
  return ids;
}

/** The name read out for one of their ids: our catalogue's title when we know it. */
function titleOf(id: string): string {
  const skill = resolveSkill(id);
  return (skill === undefined ? undefined : skillIcons.get(skill)?.title) ?? id;
}

/** `theme=auto` switches between their two variants. */
export const skillIconsRow = withAutoTheme(
  defineEndpoint({
    path: '/icons',
    summary: 'skill-icons drop-in: technology logos in rows.',
    cache: staticCardCache,
    pure: true,
    params: {
      i: lenient<IconNames>('Comma-separated skill-icons ids or short names; `all`.', readNames, []),
      icons: lenient<IconNames>('Same as `i`.', readNames, []),
      theme: lenient<'dark' | 'light'>(
        'dark or light: the variant of the icons that have two.',
        (raw) => (raw === 'light' || raw === 'dark' ? raw : undefined),
        'dark',
      ),
      perline: lenientNumber('Icons per row (1-50).', 1, 50),
    },
    async render({ i, icons, theme, perline }, { services }) {
      const set = await loadSkillIconsSet();
      const fromI = resolveIcons(i, set);
      const ids = fromI.length > 0 ? fromI : resolveIcons(icons, set);
      const cells = await Promise.all(
        ids.map(async (entry, index): Promise<SkillIconsCell | undefined> => {
          if ('id' in entry)
            return { artwork: set.artwork(entry.id, theme, `i${index}-`), title: titleOf(entry.id) };
          const logo = await findLogo(entry.slug, services.logos);
          return logo === undefined ? undefined : { logo };
        }),
      );
      return renderSkillIconsRow(
        cells.filter((cell) => cell !== undefined),
        theme,
        perline ?? defaultPerLine,
      );
    },
  }),
  { light: 'light', dark: 'dark' },
);
