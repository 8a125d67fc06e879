/**
 * @module Test support: the agent as its own process with the backend options the tests choose
 * (what `firewarden agent` passes from the config), read from the environment.
 */
import { runAgent } from '../../../src/agent/run-agent.js';
import type { ConfiguredBackend } from '../../../src/agent/select-backend.js';

await runAgent({
  socketPath: process.env.FIREWARDEN_AGENT_SOCKET!,
  stateDir: process.env.FIREWARDEN_AGENT_STATE_DIR!,
  backend: (process.env.FIREWARDEN_FIREWALL_BACKEND ?? 'auto') as ConfiguredBackend,
  allowWriteOnManagerConflict: process.env.ALLOW_WRITE_ON_MANAGER_CONFLICT === 'true',
  dockerPublishedPorts: process.env.FIREWARDEN_DOCKER_PUBLISHED_PORTS === 'ignore' ? 'ignore' : 'follow',
});
console.error('firewarden agent listening');
