/**
 * @module GET /skills: technology logos in rows.
 */
import { closestSkills, resolveSkill, skillIcons } from '../brands/skills.js';
import { renderSkills } from '../cards/skills.js';
import { staticCardCache } from '../http/cache-control.js';
import { defineEndpoint } from '../http/endpoint.js';
import { customParam, flag, number, shown, splitList, themeParam } from '../params/index.js';
import { getTheme } from '../themes/index.js';

const maxSkills = 40;

const skillsParam = customParam<string[]>(
  {
    kind: 'string',
    required: false,
    default: 'typescript,react,nodejs,docker,postgres,git',
    max: 1000,
    description: `Comma-separated technology identifiers (${skillIcons.size} known, see the list below; up to ${maxSkills}).`,
  },
  (raw) => {
    const names = splitList(raw, ',', maxSkills, 'technology');
    if ('error' in names) return names;
    const ids: string[] = [];
    for (const name of names) {
      const id = resolveSkill(name);
      if (!id)
        return {
          error: `has an unknown technology ${shown(name)}; closest known: ${closestSkills(name).join(', ')}`,
        };
      ids.push(id);
    }
    return ids;
  },
  ['typescript', 'react', 'nodejs', 'docker', 'postgres', 'git'],
);

export const skills = defineEndpoint({
  path: '/skills',
  summary: 'Technology logos with their brand colours, wrapped into rows of ten.',
  cache: staticCardCache,
  pure: true,
  params: {
    skills: skillsParam,
    showLabels: flag({ description: 'Show each technology name under its logo.', default: false }),
    size: number({ description: 'Logo size in px.', min: 16, max: 48, default: 40 }),
    theme: themeParam,
  },
  render: ({ skills, showLabels, size, theme }) =>
    renderSkills({
      icons: skills.map((id) => skillIcons.get(id)!),
      showLabels,
      size,
      theme: getTheme(theme),
    }),
});
