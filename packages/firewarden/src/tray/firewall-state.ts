/**
 * @module What the tray shows: the firewall's state read from the agent's `status` operation
 * (the same socket `firewarden status` probes), turned into the icon, the item status and the
 * tooltip text, with a pending safe apply's countdown to its automatic rollback.
 */
import { AgentUnavailable, callAgent } from '../agent-protocol/agent-client.js';

/** The fields of the agent's `status` answer the tray uses. */
interface AgentStatus {
  backend?: string;
  variant?: string;
  ufw_active?: boolean;
  owned_chains_present?: boolean;
  read_only?: boolean;
  pending_transaction?: {
    transaction_id: string;
    deadline: string;
    rollback_failure: unknown;
  } | null;
}

export type FirewallReading =
  | { kind: 'status'; status: AgentStatus }
  | { kind: 'agent_error'; code: string; message: string }
  | { kind: 'unreachable'; reason: string; socketPath: string };

export interface TrayView {
  /** StatusNotifierItem Status: `Active`, or `NeedsAttention` when something waits on a person. */
  status: 'Active' | 'NeedsAttention';
  /** A freedesktop icon-theme name every desktop ships. */
  iconName: string;
  description: string;
}

export async function readFirewallState(socketPath: string): Promise<FirewallReading> {
  try {
    const answer = await callAgent(socketPath, 'status', {}, { timeoutMs: 10_000 });
    if (answer.ok) return { kind: 'status', status: answer.result as AgentStatus };
    return { kind: 'agent_error', code: answer.error.code, message: answer.error.message };
  } catch (error) {
    if (error instanceof AgentUnavailable) return { kind: 'unreachable', reason: error.reason, socketPath };
    throw error;
  }
}

/** `m:ss` until `deadline`, never negative. */
function countdown(deadline: number, now: number): string {
  const seconds = Math.max(0, Math.ceil((deadline - now) / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function backendLine(status: AgentStatus): string {
  const tool = status.variant ? `${status.backend} (${status.variant})` : `${status.backend}`;
  const ufw = status.ufw_active === undefined ? '' : status.ufw_active ? ', ufw enabled' : ', ufw disabled';
  const rules = status.owned_chains_present ? 'firewarden rules loaded' : 'no firewarden rules loaded';
  return `Firewall: ${tool}${ufw}, ${rules}`;
}

export function trayView(reading: FirewallReading, now: number): TrayView {
  if (reading.kind === 'unreachable') {
    const hint = reading.reason === 'permission_denied' ? ' (join the firewarden group to read it)' : '';
    return {
      status: 'NeedsAttention',
      iconName: 'security-low',
      description: `Agent not reachable at ${reading.socketPath}: ${reading.reason}${hint}; firewall state unknown`,
    };
  }
  if (reading.kind === 'agent_error')
    return {
      status: 'NeedsAttention',
      iconName: 'security-low',
      description: `Agent error ${reading.code}: ${reading.message}`,
    };
  const { status } = reading;
  const lines = [backendLine(status)];
  if (status.read_only) lines.push('Read-only: a competing firewall manager is active');
  const pending = status.pending_transaction;
  if (pending?.rollback_failure) lines.push(`Rollback of ${pending.transaction_id} failing, being retried`);
  else if (pending)
    lines.push(
      `Safe apply ${pending.transaction_id} pending: rolls back in ${countdown(Date.parse(pending.deadline), now)} unless confirmed`,
    );
  else lines.push('No safe apply pending');
  const attention = Boolean(pending) || Boolean(status.read_only);
  return {
    status: attention ? 'NeedsAttention' : 'Active',
    iconName: pending?.rollback_failure ? 'security-low' : attention ? 'security-medium' : 'security-high',
    description: lines.join('\n'),
  };
}
