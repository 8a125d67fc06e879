/**
 * @module Parameters and cache policy shared by the GitHub endpoints: account and repository
 * names as GitHub allows them, an IANA time zone, a hex colour.
 */
import type { CachePolicy } from '../http/cache-control.js';
import { isTimeZone } from '../insights/calendar-date.js';
import { customParam } from '../params/index.js';

/** GitHub logins: 1-39 letters, digits or single inner hyphens. */
const loginPattern = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
/** Repository names: letters, digits, `.`, `_`, `-`, at most 100 characters. */
const repositoryNamePattern = /^[A-Za-z0-9._-]{1,100}$/;
const hexColorPattern = /^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** GitHub data refreshes behind the card (see the data layer's TTLs); image proxies keep it 30 min. */
export const githubCardCache: CachePolicy = {
  kind: 'shared',
  maxAgeSeconds: 1_800,
  staleWhileRevalidateSeconds: 86_400,
};
/** Recent events move faster. */
export const timelineCardCache: CachePolicy = {
  kind: 'shared',
  maxAgeSeconds: 600,
  staleWhileRevalidateSeconds: 3_600,
};

export const usernameParam = customParam<string>(
  { kind: 'string', required: true, max: 39, description: 'GitHub account name.' },
  (raw) =>
    loginPattern.test(raw)
      ? raw
      : { error: 'must be a GitHub account name (letters, digits, inner hyphens)' },
);

interface RepositoryName {
  owner: string;
  name: string;
}

export const repoParam = customParam<RepositoryName>(
  { kind: 'string', required: true, max: 140, description: 'Repository as `owner/name`.' },
  (raw) => {
    const [owner = '', name = '', ...rest] = raw.split('/');
    if (
      rest.length > 0 ||
      !loginPattern.test(owner) ||
      !repositoryNamePattern.test(name) ||
      /^\.+$/.test(name)
    ) {
      return { error: 'must look like owner/name (a GitHub account and repository name)' };
    }
    return { owner, name };
  },
);

export const timezoneParam = customParam<string>(
  {
    kind: 'string',
    required: false,
    default: 'UTC',
    max: 64,
    description: 'IANA time zone ("today" and hours), e.g. `Europe/Paris`.',
  },
  (raw) =>
    isTimeZone(raw) ? raw : { error: 'must be an IANA time zone such as Europe/Paris or America/New_York' },
  'UTC',
);

/** `color`: `#rgb` or `#rrggbb` (the `#` optional); empty means the theme's accent. */
export const colorParam = customParam<string>(
  {
    kind: 'string',
    required: false,
    default: '',
    max: 7,
    description: 'Hex colour such as `#ff8800`; empty: the theme accent.',
  },
  (raw) => {
    const match = hexColorPattern.exec(raw);
    return match
      ? `#${match[1]?.toLowerCase()}`
      : { error: 'must be a hex colour such as #ff8800 or ff8800' };
  },
  '',
);
