/** The shapes of the API answers the UI reads (see the package README, "API"). */

import type { ChainPolicy, ForeignRule } from '../../src/agent/foreign-rules.js';

export type { ChainPolicy, ForeignRule };

export interface User {
  id: string;
  username: string;
  display_name: string | null;
  role: 'admin' | 'viewer';
  disabled: boolean;
  created_at: string;
}

export interface SessionView {
  authenticated: true;
  user: User;
  csrf_token: string;
}

export interface Rule {
  direction: string;
  action: string;
  protocol: string;
  destination_port?: string;
  source_port?: string;
  family?: string;
  source?: string;
  destination?: string;
  interface?: string;
  comment?: string;
}

export interface Conflict {
  code: string;
  message: string;
}

export interface RulesAnswer {
  rules: Rule[];
  foreign: ForeignRule[];
  policies: ChainPolicy[];
}

export interface ExposedSocket {
  protocol: 'tcp' | 'udp';
  address: string;
  port: number;
  process: string | null;
  exposure: 'loopback_only' | 'blocked' | 'exposed' | 'partly';
  /** Positions of our inbound rules on its port. */
  rules: number[];
}

interface FirewallManager {
  name: string;
  role: 'cooperating' | 'competing';
  reason: string;
}

export interface FirewallStatus {
  backend: string;
  variant?: string;
  managers: FirewallManager[];
  conflicts: { manager: string; reason: string }[];
  read_only: boolean;
  pending_transaction: { transaction_id: string; deadline: string } | null;
}

export type Action = { op: 'add'; rule: Rule } | { op: 'delete'; position: number };

export interface Transaction {
  id: string;
  state: 'pending' | 'confirmed' | 'applied' | 'rolled_back' | 'failed';
  created_at: string;
  created_by: string;
  actions: Action[];
  restore_point_id: string | null;
  deadline: string | null;
  finished_at: string | null;
  error: string | null;
}

export interface RestorePoint {
  id: string;
  kind: 'automatic' | 'manual';
  created_at: string;
  note: string | null;
  hash: string;
}

/** A named blocklist as `GET /firewall/blocklists` lists it (`entries`: their number). */
export interface BlocklistSummary {
  name: string;
  family: 'ipv4' | 'ipv6' | 'both';
  comment: string | null;
  entries: number;
}

/** One list with its entries as the kernel holds them (merged). */
export interface Blocklist extends Omit<BlocklistSummary, 'entries'> {
  entries: string[];
  count: number;
}

/** `GET /firewall/snapshots/{id}`: a restore point with its own rules. */
export interface RestorePointRules {
  snapshot: RestorePoint;
  rules: Rule[];
  blocklists: BlocklistSummary[] | null;
}
