/**
 * @module The firewall routes of the spec, guarded by session, role and CSRF like the rest. Rule
 * validation is the engine's pure check and answers without the agent; the routes that read or
 * change the kernel go through the privileged agent, and answer 503 `FW_AGENT_UNAVAILABLE` (with
 * the reason) when it does not answer.
 */
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { RuleAnalysis } from '../../engine/analyze.js';
import { finishInTurns } from '../../engine/stepped-work.js';
import { RuleListValidation } from '../../engine/validate.js';
import type { Services } from '../../server/services.js';
import { agentResult } from '../../transactions/agent-call.js';
import { ApiError } from '../api-error.js';
import type { AppEnv } from '../app-env.js';
import { ok } from '../envelope.js';
import { requirePermission } from '../middleware/require-permission.js';
import { readJsonBody } from '../read-json-body.js';
import type { DefineRoute } from '../route-table.js';
import { registerBlocklistRoutes } from './firewall-blocklists.js';
import { registerSnapshotRoutes } from './firewall-snapshots.js';
import { registerTransactionRoutes } from './firewall-transactions.js';

/** The rules themselves are checked by the engine, which lists every problem by path. */
const validateBody = z.strictObject({ rules: z.array(z.unknown()) });

/**
 * Work per turn of the event loop, so the server answers other requests between turns: rules
 * validated, and analysis steps (candidates looked at; a rule's lookups count as 10). A list of
 * 10,000 rules (the most a request may hold) takes some 20 turns of each, a few ms apiece.
 */
const rulesPerTurn = 500;
const analysisStepsPerTurn = 10_000;

/** `managementPort` is the port this server listens on (checked by the lockout analysis). */
export function registerFirewallRoutes(
  defineRoute: DefineRoute,
  services: Services,
  managementPort: () => number | undefined = () => undefined,
): void {
  /** Reads the kernel's state through the agent (rules come from iptables-save, not our store). */
  const readFromAgent =
    (op: 'status' | 'read_rules' | 'exposure'): MiddlewareHandler<AppEnv> =>
    async (c) =>
      ok(c, await agentResult(services.config.agent.socket_path, op));
  defineRoute('/api/v1/firewall/status', {
    GET: [requirePermission('firewall.read'), readFromAgent('status')],
  });
  defineRoute('/api/v1/firewall/rules', {
    GET: [requirePermission('firewall.read'), readFromAgent('read_rules')],
  });
  // Listening sockets and whether the ruleset lets the outside reach them.
  defineRoute('/api/v1/firewall/exposure', {
    GET: [requirePermission('firewall.read'), readFromAgent('exposure')],
  });
  defineRoute('/api/v1/firewall/rules/validate', {
    POST: [
      requirePermission('firewall.read'),
      async (c) => {
        const body = await readJsonBody(c, validateBody, services.config.server.max_body_bytes);
        const result = await finishInTurns(new RuleListValidation(body.rules), rulesPerTurn);
        if (!result.ok)
          throw new ApiError('FW_VALIDATION_FAILED', 'the rules are invalid', { errors: result.errors });
        const analysis = await finishInTurns(new RuleAnalysis(result.rules), analysisStepsPerTurn);
        return ok(c, { rules: result.rules, ...analysis });
      },
    ],
  });
  const port = () => managementPort() ?? services.config.server.port;
  registerTransactionRoutes(defineRoute, services, port);
  registerBlocklistRoutes(defineRoute, services, port);
  registerSnapshotRoutes(defineRoute, services);
}
