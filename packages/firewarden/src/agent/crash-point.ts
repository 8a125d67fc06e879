/**
 * @module Test hook, inert unless `NODE_ENV=test` and `FIREWARDEN_AGENT_CRASH_AT` names a step
 * (as the test clock needs `NODE_ENV=test`): the agent then kills itself with SIGKILL when it
 * reaches that step, as a power cut or the OOM killer would. The crash tests use it to stop the
 * agent between two writes deterministically instead of racing a signal against the kernel
 * write. Only root sets the agent's environment (its systemd unit).
 */

/**
 * `after-intent-write`: the intent (pending transaction + its restore point) is on disk, the kernel
 * untouched. `after-kernel-write`: the kernel holds the new rules, not yet read back, no answer
 * sent. `after-arm`: the transaction is armed on disk (its caller may confirm), no answer sent.
 * `after-rollback-write`: a rollback put the restore point back, the pending file still exists.
 */
type CrashStep = 'after-intent-write' | 'after-kernel-write' | 'after-arm' | 'after-rollback-write';

export function crashPoint(step: CrashStep): void {
  if (process.env.NODE_ENV === 'test' && process.env.FIREWARDEN_AGENT_CRASH_AT === step) {
    process.kill(process.pid, 'SIGKILL');
  }
}
