/**
 * @module The rules naming a blocklist on the ufw backend. ufw's `user.rules` tuples cannot
 * express a set match, so these rules live in our chain `firewarden-blocklists`, declared in a
 * marked block of `before.rules` / `before6.rules` and jumped to first from `ufw-before-input`:
 * ufw loads the block with its own rules at every start and reload. The block is inserted after
 * the filter table's chain declarations and removed whole, so a file without blocklist rules is
 * byte for byte what it was before. Such rules are checked before ufw's own user rules.
 */
import type { Family } from './addresses.js';
import { blocklistReference } from './blocklist.js';
import { ownedChains } from './iptables-chains.js';
import { mergeFamilies, parseIptablesSave, type ReadRules, ruleFromTokens } from './iptables-parse.js';
import { appliesToFamily, restoreLine, ruleTokens } from './iptables-render.js';
import { tokenizeRuleLine } from './iptables-tokens.js';
import type { Rule } from './rule.js';

export const ufwBlocklistChain = 'firewarden-blocklists';

/** ufw's chain of each family that jumps to ours. */
const ufwBeforeInput: Record<Family, string> = { ipv4: 'ufw-before-input', ipv6: 'ufw6-before-input' };

export const blockBegin = '# BEGIN firewarden blocklists (written by firewarden: do not edit)';
export const blockEnd = '# END firewarden blocklists';

/** Whether a rule goes into our chain (names a blocklist) rather than through ufw's commands. */
export function isBlocklistRule(rule: Pick<Rule, 'source'>): boolean {
  return blocklistReference(rule.source) !== null;
}

/**
 * The order the kernel checks a ufw rule list in: the blocklist rules (from before-input) before
 * the user rules. It is the canonical order of a rule list on ufw, as read back.
 */
export function ufwEffectiveOrder<T extends Pick<Rule, 'source'>>(rules: readonly T[]): T[] {
  return [...rules.filter(isBlocklistRule), ...rules.filter((rule) => !isBlocklistRule(rule))];
}

/** The file's text without our block (unchanged when it has none). */
export function withoutBlock(text: string): string {
  const lines = text.split('\n');
  const begin = lines.indexOf(blockBegin);
  const end = lines.indexOf(blockEnd, begin);
  if (begin === -1 || end === -1) return text;
  return [...lines.slice(0, begin), ...lines.slice(end + 1)].join('\n');
}

/** The `-A` lines of our block: the jump from ufw's before-input chain, then the rules of the family. */
function blockRuleLines(rules: readonly Rule[], family: Family): string[] {
  const ours = rules.filter((rule) => isBlocklistRule(rule) && appliesToFamily(rule, family));
  if (ours.length === 0) return [];
  return [
    `-A ${ufwBeforeInput[family]} -j ${ufwBlocklistChain}`,
    ...ours.map((rule) => restoreLine(ufwBlocklistChain, ruleTokens(rule, family))),
  ];
}

/**
 * `before.rules` (or `before6.rules`) holding the family's blocklist rules in our block, or
 * without the block when there are none. Null when the file has no `*filter` table to put it in.
 */
export function withBlocklistBlock(text: string, family: Family, rules: readonly Rule[]): string | null {
  const bare = withoutBlock(text);
  const lines = blockRuleLines(rules, family);
  if (lines.length === 0) return bare;
  const file = bare.split('\n');
  const filter = file.indexOf('*filter');
  const commit = file.indexOf('COMMIT', filter);
  if (filter === -1 || commit === -1) return null;
  // After the table's chain declarations (and ufw's "End required lines" comment), so our jump is
  // the first line of before-input.
  let at = filter + 1;
  for (let i = at; i < commit; i += 1) if (file[i]!.startsWith(':')) at = i + 1;
  if (file[at] === '# End required lines') at += 1;
  const block = [blockBegin, `:${ufwBlocklistChain} - [0:0]`, ...lines, blockEnd];
  return [...file.slice(0, at), ...block, ...file.slice(at)].join('\n');
}

/**
 * Whether the file's block differs from the one firewarden writes for the rules it reads there:
 * an edit by hand (a line it cannot read, a comment, a reordering) that the next write drops.
 */
export function blockEditedByHand(text: string, family: Family): boolean {
  const ours = withBlocklistBlock(withoutBlock(text), family, blockRulesIn(text, family).rules);
  return ours === null || ownBlock(ours) !== ownBlock(text);
}

/** The block's lines, markers included, as one text; empty without a block. */
function ownBlock(text: string): string {
  const lines = text.split('\n');
  const begin = lines.indexOf(blockBegin);
  const end = lines.indexOf(blockEnd, begin);
  return begin === -1 || end === -1 ? '' : lines.slice(begin, end + 1).join('\n');
}

/** The blocklist rules our block of one family holds; lines we did not write are `unparsed`. */
function blockRulesIn(text: string, family: Family): ReadRules {
  const rules: Rule[] = [];
  const unparsed: string[] = [];
  for (const line of blockLines(text)) {
    const tokens = tokenizeRuleLine(line);
    if (tokens === null || tokens[1] !== ufwBlocklistChain) continue;
    // Parsed as an inbound line of ours: the chain holds only inbound rules.
    const rule = ruleFromTokens(ownedChains.in, tokens.slice(2), family);
    if (rule === null) unparsed.push(line);
    else rules.push(rule);
  }
  return { rules, unparsed };
}

/** Both families' blocklist rules, joined as the tuples are. */
export function blocklistRulesOf(beforeRules: Record<Family, string>): ReadRules {
  const v4 = blockRulesIn(beforeRules.ipv4, 'ipv4');
  const v6 = blockRulesIn(beforeRules.ipv6, 'ipv6');
  return { rules: mergeFamilies(v4.rules, v6.rules), unparsed: [...v4.unparsed, ...v6.unparsed] };
}

/**
 * `iptables-restore --noflush` input that makes the kernel's `firewarden-blocklists` chain of one
 * family what the file's block says (ufw loads the same block at its next start), or removes the
 * chain and its jump where the block is empty or ufw's chains are not loaded (ufw is off: nothing
 * of ours may filter, and the sets must be free to go). Null when there is nothing to do.
 */
export function hookChainInput(beforeRules: string, family: Family, currentSave: string): string | null {
  const filter = parseIptablesSave(currentSave).find((table) => table.name === 'filter');
  const jump = `-j ${ufwBlocklistChain}`;
  const jumps =
    filter?.rules.filter((r) => r.chain === ufwBeforeInput[family] && r.tokens.join(' ') === jump).length ??
    0;
  const exists = filter?.chains.some((c) => c.name === ufwBlocklistChain) ?? false;
  const ufwLoaded = filter?.chains.some((c) => c.name === ufwUserInput[family]) ?? false;
  const lines = blockLines(beforeRules).filter((line) => line.startsWith(`-A ${ufwBlocklistChain} `));
  const wanted = ufwLoaded && lines.length > 0;
  if (!wanted && !exists) return null;
  const input = ['*filter', `:${ufwBlocklistChain} - [0:0]`];
  if (wanted) {
    if (jumps === 0) input.push(`-I ${ufwBeforeInput[family]} 1 ${jump}`);
    input.push(...lines);
  } else {
    for (let i = 0; i < jumps; i += 1) input.push(`-D ${ufwBeforeInput[family]} ${jump}`);
    input.push(`-X ${ufwBlocklistChain}`);
  }
  input.push('COMMIT', '');
  return input.join('\n');
}

const ufwUserInput: Record<Family, string> = { ipv4: 'ufw-user-input', ipv6: 'ufw6-user-input' };

/** The lines between our markers (none without a block). */
function blockLines(text: string): string[] {
  const lines = text.split('\n');
  const begin = lines.indexOf(blockBegin);
  const end = lines.indexOf(blockEnd, begin);
  return begin === -1 || end === -1 ? [] : lines.slice(begin + 1, end);
}
