/**
 * @module Named blocklists: what a name may be, the two kernel sets a list becomes (ipset
 * `hash:net`, one per family), the bounds, and how a rule refers to a list (`source: "@name"`).
 * A list always has both sets (the other family's empty), so a rule of family `both` naming it
 * is valid on either family and a list's family only constrains its entries.
 */
import type { Family } from './addresses.js';

export const blocklistFamilies = ['ipv4', 'ipv6', 'both'] as const;
export type BlocklistFamily = (typeof blocklistFamilies)[number];

/** A list as the kernel holds it: canonical entries (merged, sorted), per family. */
export interface Blocklist {
  name: string;
  family: BlocklistFamily;
  comment: string | null;
  entries: Record<Family, string[]>;
}

/** A list without its entries, with their number: what listings and `read_rules` answer. */
export interface BlocklistSummary {
  name: string;
  family: BlocklistFamily;
  comment: string | null;
  entries: number;
}

/**
 * ipset names are at most 31 characters: `fw4-` / `fw6-` (live) and `fwn4-` / `fwn6-` (a list
 * being built, swapped in then destroyed) leave 26 for the name; 24 keeps a margin.
 */
export const maxBlocklistNameLength = 24;

export const blocklistBounds = {
  /** Entries one request may send (before duplicates and overlaps are merged away). */
  entriesPerList: 1_000_000,
  /** Bytes of one PUT body (1,000,000 IPv4 CIDRs as JSON are some 21 MB). */
  bytesPerList: 32 * 1024 * 1024,
  /** Entries held in the kernel over every list, after merging. */
  entriesInTotal: 4_000_000,
  lists: 100,
  commentLength: 256,
} as const;

/** `maxelem` of every set: a list's merged entries never outnumber the entries sent. */
export const setMaxElements = blocklistBounds.entriesPerList;

/** Lowercase letters, digits, `-` and `_`, starting with a letter or digit: safe in set names and paths. */
export function isBlocklistName(name: string): boolean {
  if (name.length === 0 || name.length > maxBlocklistNameLength) return false;
  for (let i = 0; i < name.length; i += 1) {
    const c = name[i]!;
    const letterOrDigit = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!letterOrDigit && (i === 0 || (c !== '-' && c !== '_'))) return false;
  }
  return true;
}

const setPrefix: Record<Family, string> = { ipv4: 'fw4-', ipv6: 'fw6-' };
const stagingPrefix: Record<Family, string> = { ipv4: 'fwn4-', ipv6: 'fwn6-' };

/** The live kernel set of a list for one family. */
export function setName(list: string, family: Family): string {
  return `${setPrefix[family]}${list}`;
}

/** The set a new version of a list is built in before it is swapped with the live one. */
export function stagingSetName(list: string, family: Family): string {
  return `${stagingPrefix[family]}${list}`;
}

/** The list and family of one of our live sets, or null for any other set (fail2ban's, ours being built). */
export function listOfSet(set: string): { list: string; family: Family } | null {
  for (const family of ['ipv4', 'ipv6'] as const) {
    if (!set.startsWith(setPrefix[family])) continue;
    const list = set.slice(setPrefix[family].length);
    return isBlocklistName(list) ? { list, family } : null;
  }
  return null;
}

/** A rule's `source` naming a list: `@name`. */
export function blocklistReference(source: string): string | null {
  return source.startsWith('@') ? source.slice(1) : null;
}

/** The lists a rule list refers to, each once. */
export function referencedBlocklists(rules: readonly { source: string }[]): Set<string> {
  const names = new Set<string>();
  for (const rule of rules) {
    const name = blocklistReference(rule.source);
    if (name !== null) names.add(name);
  }
  return names;
}

/** iptables' `-s <address>`, or the match on the family's set of a blocklist (`@name`); none for `any`. */
export function sourceTokens(source: string, family: Family): string[] {
  if (source === 'any') return [];
  const list = blocklistReference(source);
  return list === null ? ['-s', source] : ['-m', 'set', '--match-set', setName(list, family), 'src'];
}
