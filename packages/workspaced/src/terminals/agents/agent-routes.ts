/**
 * @module `GET /agents`: the coding agents running in the live terminals the caller may see
 * (`agent.view` in the terminal's project), each with its state.
 */
import type { Hono } from 'hono';
import { roleHas } from '../../access/permissions.js';
import type { AppEnv, DaemonContext } from '../../http/app-env.js';
import { terminalRole } from '../terminal-access.js';
import { type DetectedAgent, detectAgent } from './agent-detection.js';
import { readProcessTable } from './process-tree.js';

export function registerAgentRoutes(app: Hono<AppEnv>, { db, terminals }: DaemonContext): void {
  app.get('/agents', async (c) => {
    const visible = [];
    for (const session of terminals.list()) {
      const role = await terminalRole(db, c.var.principal, session);
      if (role && roleHas(role, 'agent.view')) visible.push(session);
    }
    const table = visible.length > 0 ? await readProcessTable() : [];
    const agents: DetectedAgent[] = [];
    for (const session of visible) {
      const agent = detectAgent(session, table);
      if (agent) agents.push(agent);
    }
    return c.json({ agents });
  });
}
