/**
 * @module skill-icons' own artwork (tandpfun/skill-icons, MIT), from `@iconify-json/skill-icons`:
 * 400 icons in a 256x256 box, 162 of them in a `-dark` and a `-light` variant. Resolves their
 * ids and short names the way skillicons.dev does.
 */
import { icons } from '@iconify-json/skill-icons';

export type SkillIconsTheme = 'dark' | 'light';

/** One icon ready to draw: its id (for the title) and its markup in a 256x256 box. */
export interface SkillIconArtwork {
  id: string;
  body: string;
}

/** Their short names (`shortNames` of skill-icons' worker), each to an id of the set. */
const shortNames: Readonly<Record<string, string>> = {
  js: 'javascript',
  ts: 'typescript',
  py: 'python',
  tailwind: 'tailwindcss',
  vue: 'vuejs',
  nuxt: 'nuxtjs',
  go: 'golang',
  cf: 'cloudflare',
  wasm: 'webassembly',
  postgres: 'postgresql',
  k8s: 'kubernetes',
  next: 'nextjs',
  mongo: 'mongodb',
  md: 'markdown',
  ps: 'photoshop',
  ai: 'illustrator',
  pr: 'premiere',
  ae: 'aftereffects',
  scss: 'sass',
  sc: 'scala',
  net: 'dotnet',
  gatsbyjs: 'gatsby',
  gql: 'graphql',
  vlang: 'v',
  amazonwebservices: 'aws',
  bots: 'discordbots',
  express: 'expressjs',
  googlecloud: 'gcp',
  mui: 'materialui',
  windi: 'windicss',
  unreal: 'unrealengine',
  nest: 'nestjs',
  ktorio: 'ktor',
  pwsh: 'powershell',
  au: 'audition',
  rollup: 'rollupjs',
  rxjs: 'reactivex',
  rxjava: 'reactivex',
  ghactions: 'githubactions',
  sklearn: 'scikitlearn',
};

const themed = /-(dark|light)$/;

/** Every id of the set once (a themed pair counts once), in the set's order: their `i=all`. */
export const skillIconIds: readonly string[] = [
  ...new Set(Object.keys(icons.icons).map((name) => name.replace(themed, ''))),
];
const known = new Set(skillIconIds);

/** The set's id for one of theirs or a short name (any case); undefined when the set lacks it. */
export function resolveSkillIconId(raw: string): string | undefined {
  const name = raw.toLowerCase();
  const id = Object.hasOwn(shortNames, name) ? shortNames[name]! : name;
  return known.has(id) ? id : undefined;
}

/**
 * The artwork of `id` in `theme` (the themed variant when the icon has one, else its only
 * form), its element ids prefixed with `scope` so several icons in one SVG never share one.
 */
export function skillIconArtwork(id: string, theme: SkillIconsTheme, scope: string): SkillIconArtwork {
  const icon = icons.icons[`${id}-${theme}`] ?? icons.icons[id];
  if (icon === undefined) throw new Error(`skill-icons has no icon "${id}"`);
  const body = icon.body
    .replace(/\bid="([^"]+)"/g, `id="${scope}$1"`)
    .replace(/url\(#([^()]+)\)/g, `url(#${scope}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${scope}$1"`);
  return { id, body };
}
