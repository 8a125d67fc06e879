/**
 * @module The 17 `/icon` names (15 platforms plus `website` and `email`) and their aliases.
 */

import { type BrandIcon, fromSimpleIcon } from './brand-icon.js';
import { emailIcon, linkedinIcon, websiteIcon } from './drawn-icons.js';
import {
  siDevdotto,
  siDiscord,
  siGithub,
  siHashnode,
  siInstagram,
  siReddit,
  siSpotify,
  siStackoverflow,
  siSteam,
  siTelegram,
  siTwitch,
  siWhatsapp,
  siX,
  siYoutube,
} from './simple-icons.generated.js';

/** The spec's 17 identifiers, in the order the README lists them. */
export const platformNames = [
  'github',
  'x',
  'youtube',
  'linkedin',
  'instagram',
  'discord',
  'twitch',
  'reddit',
  'telegram',
  'whatsapp',
  'spotify',
  'steam',
  'stackoverflow',
  'devto',
  'hashnode',
  'website',
  'email',
] as const;

type PlatformName = (typeof platformNames)[number];

export const platformIcons: Record<PlatformName, BrandIcon> = {
  github: fromSimpleIcon(siGithub),
  x: fromSimpleIcon(siX),
  youtube: fromSimpleIcon(siYoutube),
  linkedin: linkedinIcon,
  instagram: fromSimpleIcon(siInstagram),
  discord: fromSimpleIcon(siDiscord),
  twitch: fromSimpleIcon(siTwitch),
  reddit: fromSimpleIcon(siReddit),
  telegram: fromSimpleIcon(siTelegram),
  whatsapp: fromSimpleIcon(siWhatsapp),
  spotify: fromSimpleIcon(siSpotify),
  steam: fromSimpleIcon(siSteam),
  stackoverflow: fromSimpleIcon(siStackoverflow),
  devto: fromSimpleIcon(siDevdotto),
  hashnode: fromSimpleIcon(siHashnode),
  website: websiteIcon,
  email: emailIcon,
};

/** Other spellings people use, mapped to the canonical name. */
export const platformAliases: Readonly<Record<string, PlatformName>> = {
  twitter: 'x',
  'x.com': 'x',
  gh: 'github',
  yt: 'youtube',
  ig: 'instagram',
  tg: 'telegram',
  'dev.to': 'devto',
  dev: 'devto',
  'stack-overflow': 'stackoverflow',
  so: 'stackoverflow',
  mail: 'email',
  web: 'website',
  site: 'website',
  homepage: 'website',
  blog: 'website',
};

/** Canonical platform for a name or alias (case-insensitive), or undefined. */
export function resolvePlatform(name: string): PlatformName | undefined {
  const key = name.trim().toLowerCase();
  if ((platformNames as readonly string[]).includes(key)) return key as PlatformName;
  return platformAliases[key];
}
