/**
 * @module The firewall routes of the spec, guarded by session, role and CSRF like the rest. The
 * engine behind them (rules, transactions, restore points) talks to the privileged agent and comes
 * with issue 10; until an agent answers, each says 503 `FW_AGENT_UNAVAILABLE`, which the UI shows.
 */
import type { MiddlewareHandler } from 'hono';
import type { Permission } from '../../auth/roles.js';
import { probeAgent } from '../../firewall/agent-link.js';
import type { Services } from '../../server/services.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { requirePermission } from '../middleware/require-permission.js';
import type { DefineRoute, Method } from '../route-table.js';

const routes: [string, Method, Permission][] = [
  ['/api/v1/firewall/status', 'GET', 'firewall.read'],
  ['/api/v1/firewall/rules', 'GET', 'firewall.read'],
  ['/api/v1/firewall/rules/validate', 'POST', 'firewall.read'],
  ['/api/v1/firewall/transactions', 'POST', 'firewall.write'],
  ['/api/v1/firewall/transactions/:id/confirm', 'POST', 'firewall.write'],
  ['/api/v1/firewall/snapshots', 'POST', 'firewall.write'],
  ['/api/v1/firewall/snapshots/:id/restore', 'POST', 'firewall.write'],
];

export function registerFirewallRoutes(defineRoute: DefineRoute, services: Services): void {
  const agentUnavailable: MiddlewareHandler<AppEnv> = async () => {
    const probe = await probeAgent(services.config.agent.socket_path);
    throw new ApiError(
      'FW_AGENT_UNAVAILABLE',
      probe.connected
        ? 'this server version does not drive the agent yet'
        : 'the firewarden agent is not connected; start firewarden-agent (firewarden agent)',
      { reason: probe.connected ? 'engine_not_available' : probe.reason },
    );
  };
  for (const [path, method, permission] of routes) {
    defineRoute(path, { [method]: [requirePermission(permission), agentUnavailable] });
  }
}
