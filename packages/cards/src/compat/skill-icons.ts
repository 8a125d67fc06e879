/**
 * @module skill-icons (skillicons.dev) drop-in: `/icons?i=js,html,css&theme=light&perline=3`.
 * Its ids and short aliases resolve to our skills catalogue; ids we have no logo for are left
 * out (the row keeps the others), never an error.
 */
import { resolveSkill, skillIcons } from '../brands/skills.js';
import { renderSkills } from '../cards/skills.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { ownEntry } from '../params/own-entry.js';
import { getTheme } from '../themes/index.js';
import { lenient, lenientNumber, readList } from './lenient.js';

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

function readIcons(raw: string): string[] {
  // `i=all` shows every icon they have; here, every logo we have.
  if (raw.toLowerCase() === 'all') return [...skillIcons.keys()].slice(0, maxIcons);
  const ids: string[] = [];
  for (const name of readList(raw, maxIcons)) {
    const key = name.toLowerCase();
    const id = resolveSkill(ownEntry(theirIds, key) ?? key);
    if (id && !ids.includes(id)) ids.push(id);
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
    i: lenient<readonly string[]>('Comma-separated skill-icons ids or aliases.', readIcons, []),
    icons: lenient<readonly string[]>('Same as `i`.', readIcons, []),
    theme: lenient<'dark' | 'light'>(
      'dark or light.',
      (raw) => (raw === 'light' || raw === 'dark' ? raw : undefined),
      'dark',
    ),
    perline: lenientNumber('Icons per row (1-50).', 1, 50),
  },
  render: ({ i, icons, theme, perline }) => {
    const ids = i.length > 0 ? i : icons;
    return renderSkills({
      icons: ids.map((id) => skillIcons.get(id)!),
      showLabels: false,
      size: iconSize,
      theme: getTheme(themes[theme]),
      perRow: perline ?? defaultPerLine,
    });
  },
});
