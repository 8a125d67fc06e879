/**
 * @module skill-icons (skillicons.dev) drop-in: `/icons?i=js,html,css&theme=light&perline=3`.
 * Its ids and short aliases resolve to our skills catalogue; other ids are looked up as
 * simple-icons slugs (every slug on Node, see `LogoCatalogue`), and ids found nowhere are left
 * out (the row keeps the others), never an error.
 */
import { resolveSkill, skillIcons } from '../brands/skills.js';
import { renderSkills } from '../cards/skills.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { ownEntry } from '../params/own-entry.js';
import { getTheme } from '../themes/index.js';
import { lenient, lenientNumber, readList } from './lenient.js';
import { findLogo, readLogoSlug } from './simple-icons-logos.js';

/** Their ids and aliases whose name differs from ours (the rest resolve as our ids or aliases). */
const theirIds: Readonly<Record<string, string>> = {
  nuxtjs: 'nuxt',
  tailwindcss: 'tailwind',
  vuejs: 'vue',
  golang: 'go',
  cf: 'cloudflare',
  postgresql: 'postgres',
  mongo: 'mongodb',
  next: 'nextjs',
  nest: 'nestjs',
  expressjs: 'express',
  net: 'dotnet',
  sc: 'scala',
  ghactions: 'githubactions',
  unrealengine: 'unreal',
  godotengine: 'godot',
};

/** Their `perline`: 1-50, default 15. */
const defaultPerLine = 15;
/** Their icons are 48 px squares. */
const iconSize = 48;
/** Most icons read from `i`. */
const maxIcons = 60;

/** An id of theirs: one of our skills, or a simple-icons slug to look up when drawing. */
type IconId = { skill: string } | { slug: string };

function readIcons(raw: string): IconId[] {
  // `i=all` shows every icon they have; here, every logo we have.
  if (raw.toLowerCase() === 'all')
    return [...skillIcons.keys()].slice(0, maxIcons).map((skill) => ({ skill }));
  const ids: IconId[] = [];
  const seen = new Set<string>();
  for (const name of readList(raw, maxIcons)) {
    const key = name.toLowerCase();
    const skill = resolveSkill(ownEntry(theirIds, key) ?? key);
    const slug = skill === undefined ? readLogoSlug(key) : undefined;
    const seenAs = skill ?? `slug:${slug}`;
    if ((skill === undefined && slug === undefined) || seen.has(seenAs)) continue;
    seen.add(seenAs);
    ids.push(skill === undefined ? { slug: slug! } : { skill });
  }
  return ids;
}

/** Their two themes onto ours: dark (their default) and light. */
const themes = { dark: 'github-dark', light: 'coral' } as const;

export const skillIconsRow = defineEndpoint({
  path: '/icons',
  summary: 'skill-icons drop-in: technology logos in rows.',
  cache: staticCardCache,
  pure: true,
  params: {
    i: lenient<readonly IconId[]>('Comma-separated skill-icons ids or aliases.', readIcons, []),
    icons: lenient<readonly IconId[]>('Same as `i`.', readIcons, []),
    theme: lenient<'dark' | 'light'>(
      'dark or light.',
      (raw) => (raw === 'light' || raw === 'dark' ? raw : undefined),
      'dark',
    ),
    perline: lenientNumber('Icons per row (1-50).', 1, 50),
  },
  async render({ i, icons, theme, perline }, { services }) {
    const ids = i.length > 0 ? i : icons;
    const found = await Promise.all(
      ids.map((id) => ('skill' in id ? skillIcons.get(id.skill) : findLogo(id.slug, services.logos))),
    );
    return renderSkills({
      icons: found.filter((icon) => icon !== undefined),
      showLabels: false,
      size: iconSize,
      theme: getTheme(themes[theme]),
      perRow: perline ?? defaultPerLine,
    });
  },
});
