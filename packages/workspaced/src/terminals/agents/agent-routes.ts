/**
 * @module `GET /agents`: the coding agents running in the live terminals the caller may see
 * (`agent.view` in the terminal's project), each with its state. `GET /agents/known`
 * (`agent.view`): every agent the daemon recognizes and where it is installed on its PATH.
 */
import type { Hono } from 'hono';
import { roleHas } from '../../access/permissions.js';
import { requirePermission } from '../../access/project-access.js';
import type { AppEnv, DaemonContext } from '../../http/app-env.js';
import { terminalRole } from '../terminal-access.js';
import type { TerminalSession } from '../terminal-session.js';
import { type DetectedAgent, detectAgent } from './agent-detection.js';
import { knownAgentPaths } from './installed-agents.js';
import { readProcessTable } from './process-tree.js';

export function registerAgentRoutes(app: Hono<AppEnv>, { db, terminals }: DaemonContext): void {
  app.get('/agents', async (c) => {
    const visible = [];
    for (const session of terminals.list()) {
      const role = await terminalRole(db, c.var.principal, session);
      if (role && roleHas(role, 'agent.view')) visible.push(session);
    }
    return c.json({ agents: await agentsOf(visible) });
  });

  app.get('/agents/known', requirePermission('agent.view'), async (c) =>
    c.json({ agents: await knownAgentPaths() }),
  );
}

/** The agents running in these terminals (also answered to paired nodes, `src/nodes/`). */
export async function agentsOf(sessions: readonly TerminalSession[]): Promise<DetectedAgent[]> {
  const table = sessions.length > 0 ? await readProcessTable() : [];
  const agents: DetectedAgent[] = [];
  for (const session of sessions) {
    const agent = detectAgent(session, table);
    if (agent) agents.push(agent);
  }
  return agents;
}
