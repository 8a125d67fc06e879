/**
 * @module Entry of the agent as its own process from the environment alone
 * (`node dist/agent/agent-main.js`; the agent tests bundle it). Installed hosts run
 * `firewarden agent` (src/cli/agent-command.ts), which reads the config file. SIGTERM/SIGINT
 * close the socket and leave a pending transaction on disk for the next start.
 */
import { logRollback } from './rollback-log.js';
import { runAgent } from './run-agent.js';

const socketPath = process.env.FIREWARDEN_AGENT_SOCKET ?? '/run/firewarden/agent.sock';
const stateDir = process.env.FIREWARDEN_AGENT_STATE_DIR ?? '/var/lib/firewarden-agent';
const gid =
  process.env.FIREWARDEN_AGENT_GID === undefined ? undefined : Number(process.env.FIREWARDEN_AGENT_GID);

const running = await runAgent({
  socketPath,
  stateDir,
  gid,
  events: { onRollback: logRollback },
});
console.error(JSON.stringify({ msg: 'firewarden agent listening', socket: socketPath }));
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => void running.close().then(() => process.exit(0)));
}
