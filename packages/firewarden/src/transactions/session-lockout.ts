/**
 * @module The lockout check of one change for one client (the API's session, or the CLI's SSH
 * peer): the whole ruleset around our chain decides, with our rules as they are (plus stand-ins
 * for lines the change lets go) and as they would be, and the blocklists holding the client's
 * address before and after, so a list that comes to hold the operator's address while a rule
 * drops it is caught like a rule that drops them.
 */
import { type Conflict, lockoutRisks } from '../engine/analyze.js';
import type { Blocklist } from '../engine/blocklist.js';
import type { MergedEntries } from '../engine/blocklist-entries.js';
import { lockoutStandIns } from '../engine/iptables-parse.js';
import type { Rule } from '../engine/rule.js';
import { ownInputChain, type RulesetView, rulesetVerdict } from '../engine/ruleset-verdict.js';
import { ufwEffectiveOrder } from '../engine/ufw-blocklist-rules.js';
import type { Backend } from '../engine/validate.js';

/** SSH is checked on its standard port (the config has no key for another one). */
const sshPort = 22;

/** A blocklist set whole (its entries merged by the engine) or deleted, in one transaction. */
export type BlocklistRequest =
  | { op: 'set'; list: Blocklist; merged: MergedEntries }
  | { op: 'delete'; name: string };

/** `read_rules` as the agent answers it, asked with the client's address. */
export interface CurrentRuleset extends RulesetView {
  backend: Backend;
  rules: Rule[];
  unparsed: string[];
  address_in_blocklists?: string[];
}

interface SessionChange {
  rules: readonly Rule[];
  /** Unmanaged lines the change lets go. */
  dropped: readonly string[];
  blocklist?: BlocklistRequest;
}

export function sessionLockoutRisks(
  current: CurrentRuleset,
  change: SessionChange,
  client: { address: string; managementPort: number },
): Conflict[] {
  const before = [...lockoutStandIns(change.dropped), ...current.rules];
  // The whole ruleset decides: foreign lines around our chain, and INPUT's policy (parsed once).
  const verdict = rulesetVerdict(current, ownInputChain(current.backend));
  const listsBefore = new Set(current.address_in_blocklists ?? []);
  // On ufw the rules naming a blocklist are checked first, wherever the list puts them.
  const after = current.backend === 'ufw' ? ufwEffectiveOrder(change.rules) : change.rules;
  return lockoutRisks(
    before,
    after,
    {
      client_address: client.address,
      ssh_port: sshPort,
      management_port: client.managementPort,
      default_incoming: 'allow',
      client_lists: {
        before: listsBefore,
        after: listsHolding(listsBefore, change.blocklist, client.address),
      },
    },
    (rules, packet) => verdict(rules, packet) === 'allow',
  );
}

/** The lists holding the client's address once the change is made. */
function listsHolding(
  before: ReadonlySet<string>,
  change: BlocklistRequest | undefined,
  client: string,
): Set<string> {
  const after = new Set(before);
  if (change === undefined) return after;
  const name = change.op === 'set' ? change.list.name : change.name;
  after.delete(name);
  if (change.op === 'set' && change.merged.holds(client)) after.add(name);
  return after;
}

/** The agent's `blocklists` parameter for the change (entries flat, IPv4 first). */
export function agentBlocklistChange(change: BlocklistRequest) {
  if (change.op === 'delete') return { delete: [change.name] };
  const { name, family, comment, entries } = change.list;
  return { set: [{ name, family, comment, entries: [...entries.ipv4, ...entries.ipv6] }] };
}
