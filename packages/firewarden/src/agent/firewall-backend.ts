/**
 * @module What the agent needs from a firewall backend (iptables, ufw): capture the whole state
 * for a restore point, read our rules back, dry-run a rule list, write it, verify it, and put a
 * captured state back. The agent keeps the order (restore point, write, verify, roll back on
 * failure) and the safe-apply timer; a backend only knows its tools.
 */
import type { Family } from '../engine/addresses.js';
import type { Blocklist } from '../engine/blocklist.js';
import type { ReadRules } from '../engine/iptables-parse.js';
import type { Rule } from '../engine/rule.js';
import type { Backend } from '../engine/validate.js';
import type { SetsMirror } from './blocklist-sets.js';

/** A restore point's content: `iptables-save` of both families always, ufw's files on ufw. */
export interface BackendState {
  iptables: Record<Family, string>;
  /** Absolute path -> content, for the files that existed when the point was taken. */
  ufw_files?: Record<string, string>;
  /** Every blocklist with its entries (absent from points taken before blocklists existed). */
  blocklists?: Blocklist[];
}

export interface FirewallBackend {
  readonly kind: Backend;
  /** Told of every blocklist written or destroyed, where the backend keeps its own copy (ufw). */
  readonly setsMirror?: SetsMirror;
  /** `iptables-save` / `ip6tables-save` of the variant in use. */
  saveAll(): Promise<Record<Family, string>>;
  capture(): Promise<BackendState>;
  /** Backend facts for `status` (variant, whether our rules are loaded...). */
  describe(saved: Record<Family, string>): Promise<Record<string, unknown>>;
  /** Our rules, from `saved` (just read by `saveAll`) where the backend keeps them in the kernel. */
  readRules(saved: Record<Family, string>): Promise<ReadRules>;
  /** Our rules as a restore point's captured state holds them. */
  rulesIn(state: BackendState): Promise<ReadRules>;
  /** Lines of our rules in `state` the model cannot express, which the next write would drop. */
  unmanagedLines(state: BackendState): string[];
  /**
   * Dry-runs `rules` against `state` (just captured) and returns the write that makes them live;
   * a refusal is `FW_VALIDATION_FAILED` and nothing was changed. The write answers the files it
   * saved aside: hand edits inside our marked blocks, which it replaces (ufw).
   */
  prepare(rules: Rule[], state: BackendState): Promise<() => Promise<string[]>>;
  /** Reads the rules back: what the backend holds must be what we meant, in order. */
  verify(rules: Rule[]): Promise<void>;
  restore(state: BackendState): Promise<void>;
}

/** Command output in an answer is capped: enough to see the error, never a flood. */
export function clip(text: string): string {
  return text.length > 2_000 ? `${text.slice(0, 2_000)}…` : text;
}
