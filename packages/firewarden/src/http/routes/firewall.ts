/**
 * @module The firewall routes of the spec, guarded by session, role and CSRF like the rest. Rule
 * validation is the engine's pure check and answers without the agent; the routes that read or
 * change the kernel go through the privileged agent (issue 10) and, until the server drives it,
 * say 503 `FW_AGENT_UNAVAILABLE`, which the UI shows.
 */
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { AgentUnavailable, callAgent } from '../../agent/agent-client.js';
import type { Permission } from '../../auth/roles.js';
import { analyzeRules } from '../../engine/analyze.js';
import { validateRules } from '../../engine/validate.js';
import { probeAgent } from '../../firewall/agent-link.js';
import type { Services } from '../../server/services.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute, Method } from '../route-table.js';

/** The rules themselves are checked by the engine, which lists every problem by path. */
const validateBody = z.strictObject({ rules: z.array(z.unknown()) });

const routes: [string, Method, Permission][] = [
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
  /** Reads the kernel's state through the agent (rules come from iptables-save, not our store). */
  const readFromAgent =
    (op: 'status' | 'read_rules'): MiddlewareHandler<AppEnv> =>
    async (c) => {
      const answer = await callAgent(services.config.agent.socket_path, op).catch((error: unknown) => {
        if (!(error instanceof AgentUnavailable)) throw error;
        throw new ApiError(
          'FW_AGENT_UNAVAILABLE',
          'the firewarden agent is not connected; start firewarden-agent (firewarden agent)',
          { reason: error.reason },
        );
      });
      if (!answer.ok) {
        throw new ApiError(
          'FW_AGENT_UNAVAILABLE',
          `the agent could not read the firewall: ${answer.error.message}`,
          {
            reason: 'agent_error',
            agent_error: answer.error.code,
          },
        );
      }
      return ok(c, answer.result);
    };
  defineRoute('/api/v1/firewall/status', {
    GET: [requirePermission('firewall.read'), readFromAgent('status')],
  });
  defineRoute('/api/v1/firewall/rules', {
    GET: [requirePermission('firewall.read'), readFromAgent('read_rules')],
  });
  defineRoute('/api/v1/firewall/rules/validate', {
    POST: [
      requirePermission('firewall.read'),
      async (c) => {
        const body = await readJsonBody(c, validateBody, services.config.server.max_body_bytes);
        const result = validateRules(body.rules);
        if (!result.ok)
          throw new ApiError('FW_VALIDATION_FAILED', 'the rules are invalid', { errors: result.errors });
        return ok(c, { rules: result.rules, conflicts: analyzeRules(result.rules) });
      },
    ],
  });
  for (const [path, method, permission] of routes) {
    defineRoute(path, { [method]: [requirePermission(permission), agentUnavailable] });
  }
}
