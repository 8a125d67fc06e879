/**
 * @module skill-icons' own artwork (tandpfun/skill-icons, MIT), from `@iconify-json/skill-icons`:
 * 400 icons in a 256x256 box, 162 of them in a `-dark` and a `-light` variant. Resolves their
 * ids and short names the way skillicons.dev does. The set (1.6 MB of JSON) is loaded at the
 * first `/icons` card, not at start-up: most instances and isolates never draw one.
 */
import type { IconifyJSON } from '@iconify-json/skill-icons';
import { prefixIds } from '../svg/prefix-ids.js';

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

/** The loaded set: its ids, their resolution and their artwork. */
export interface SkillIconsSet {
  /** Every id of the set once (a themed pair counts once), in the set's order: their `i=all`. */
  ids: readonly string[];
  /** The set's id for one of theirs or a short name (any case); undefined when the set lacks it. */
  resolve(raw: string): string | undefined;
  /**
   * The artwork of `id` in `theme` (the themed variant when the icon has one, else its only
   * form), its element ids prefixed with `scope` so several icons in one SVG never share one.
   */
  artwork(id: string, theme: SkillIconsTheme, scope: string): SkillIconArtwork;
}

function createSkillIconsSet(icons: IconifyJSON['icons']): SkillIconsSet {
  const ids = [...new Set(Object.keys(icons).map((name) => name.replace(themed, '')))];
  const known = new Set(ids);
  return {
    ids,
    resolve(raw) {
      const name = raw.toLowerCase();
      const id = Object.hasOwn(shortNames, name) ? shortNames[name]! : name;
      return known.has(id) ? id : undefined;
    },
    artwork(id, theme, scope) {
      const icon = icons[`${id}-${theme}`] ?? icons[id];
      if (icon === undefined) throw new Error(`skill-icons has no icon "${id}"`);
      return { id, body: prefixIds(icon.body, scope) };
    },
  };
}

let loaded: Promise<SkillIconsSet> | undefined;

/** The set, imported once on first use. */
export function loadSkillIconsSet(): Promise<SkillIconsSet> {
  loaded ??= import('@iconify-json/skill-icons').then(({ icons }) => createSkillIconsSet(icons.icons));
  return loaded;
}
