/**
 * @module A transaction's blocklist part, checked by the agent as it checks rules (it never trusts
 * what the socket sends: entries become `ipset restore` lines): names, entries (merged by the
 * server or the CLI; the agent checks each one and that they are sorted and disjoint), the bounds over every list, rules naming only lists that exist after the change, and no list
 * deleted while a rule names it.
 */

import type { BlocklistChangeInput } from '../agent-protocol/protocol.js';
import {
  type Blocklist,
  blocklistBounds,
  blocklistReference,
  isBlocklistName,
  referencedBlocklists,
} from '../engine/blocklist.js';
import { checkMergedEntries } from '../engine/blocklist-entries.js';
import type { Rule } from '../engine/rule.js';
import { blocklistNameRule, type RuleProblem } from '../engine/validate.js';
import { AgentError } from './agent-error.js';

export interface BlocklistChange {
  set: Blocklist[];
  remove: string[];
}

const noBlocklistChange: BlocklistChange = { set: [], remove: [] };

export function checkedBlocklistChange(input: BlocklistChangeInput | undefined): BlocklistChange {
  if (input === undefined) return noBlocklistChange;
  const errors: RuleProblem[] = [];
  const set: Blocklist[] = [];
  for (const [index, list] of input.set.entries()) {
    const at = `blocklists.set.${index}`;
    if (!isBlocklistName(list.name))
      errors.push({ path: `${at}.name`, code: 'invalid_blocklist', message: blocklistNameRule });
    const merged = checkMergedEntries(list.entries, list.family, `${at}.entries`);
    if (!merged.ok) errors.push(...merged.errors);
    else set.push({ name: list.name, family: list.family, comment: list.comment, entries: merged.entries });
  }
  input.delete.forEach((name, index) => {
    if (!isBlocklistName(name))
      errors.push({
        path: `blocklists.delete.${index}`,
        code: 'invalid_blocklist',
        message: blocklistNameRule,
      });
  });
  if (errors.length > 0)
    throw new AgentError('FW_VALIDATION_FAILED', 'the blocklists are invalid', { errors });
  return { set, remove: input.delete.filter((name) => !set.some((list) => list.name === name)) };
}

/**
 * The lists there will be (name -> entries), refusing what the change cannot do: a deleted list
 * that does not exist, one still named by a rule, a rule naming no list, a bound passed.
 */
export function listsAfter(
  current: readonly Blocklist[],
  change: BlocklistChange,
  rules: readonly Rule[],
): Map<string, number> {
  const after = new Map(current.map((list) => [list.name, size(list)]));
  for (const name of change.remove) {
    if (!after.delete(name)) throw new AgentError('FW_BLOCKLIST_NOT_FOUND', `no blocklist named ${name}`);
  }
  for (const list of change.set) after.set(list.name, size(list));
  const unknown = rules.flatMap((rule, index) => {
    const name = blocklistReference(rule.source);
    return name === null || after.has(name) ? [] : [{ index, name }];
  });
  const removedInUse = change.remove.filter((name) => referencedBlocklists(rules).has(name));
  if (removedInUse.length > 0) {
    throw new AgentError(
      'FW_BLOCKLIST_IN_USE',
      `blocklist ${removedInUse.join(', ')} is the source of rules: change or delete them first`,
      {
        rules: rules.flatMap((rule, index) => {
          const name = blocklistReference(rule.source);
          return name !== null && removedInUse.includes(name) ? [{ position: index + 1, rule }] : [];
        }),
      },
    );
  }
  if (unknown.length > 0) {
    throw new AgentError('FW_VALIDATION_FAILED', 'rules name blocklists that do not exist', {
      errors: unknown.map(({ index, name }) => ({
        path: `rules.${index}.source`,
        code: 'unknown_blocklist',
        message: `no blocklist named ${name}`,
      })),
    });
  }
  if (after.size > blocklistBounds.lists) {
    throw new AgentError('FW_BLOCKLIST_TOO_LARGE', `at most ${blocklistBounds.lists} blocklists`, {
      limit: blocklistBounds.lists,
    });
  }
  const total = [...after.values()].reduce((sum, n) => sum + n, 0);
  if (total > blocklistBounds.entriesInTotal) {
    throw new AgentError(
      'FW_BLOCKLIST_TOO_LARGE',
      `the blocklists would hold ${total} entries in all, more than ${blocklistBounds.entriesInTotal}`,
      { limit: blocklistBounds.entriesInTotal, entries: total },
    );
  }
  return after;
}

function size(list: Blocklist): number {
  return list.entries.ipv4.length + list.entries.ipv6.length;
}
