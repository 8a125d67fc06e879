/**
 * @module The agent's own log of its rollbacks: one JSON line on stderr per attempt (journald
 * keeps it). A failed rollback is logged at level `error` with the attempt count and the next
 * try, since the firewall then holds a change nobody confirmed; the server turns the same state
 * (from `status`) into a critical notification.
 */
import type { RollbackEvent } from './firewall-agent.js';

export function logRollback(event: RollbackEvent): void {
  const line = event.ok
    ? { level: 'info', msg: 'safe apply rolled back', ...event }
    : {
        level: 'error',
        msg: 'safe apply rollback FAILED: the firewall holds a change nobody confirmed; retrying',
        ...event,
      };
  process.stderr.write(`${JSON.stringify(line)}\n`);
}
