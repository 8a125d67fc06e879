/**
 * @module The node routes. With a session (`settings.view` to read, `settings.manage` to change,
 * so owners and admins): `GET /nodes`, `GET /nodes/self` (this daemon's public key), `POST /nodes`, `POST /nodes/{id}/pairing`,
 * `POST /nodes/{id}/connect`, `POST /nodes/{id}/revoke`, `GET /nodes/{id}/agents`. Without one,
 * for the other daemon: `POST /nodes/pair` (redeem a code; audited here, the audit middleware
 * only sees sessions) and `GET /agents` with `Authorization: Bearer <node credential>`.
 */
import type { AuditLog } from '@suite/web-auth';
import type { Context, Hono } from 'hono';
import { requirePermission } from '../access/project-access.js';
import { ApiError, notFound } from '../http/api-error.js';
import type { AppEnv, DaemonContext } from '../http/app-env.js';
import { clientAddress } from '../http/client-address.js';
import { readId, readJson } from '../http/request-input.js';
import { agentsOf } from '../terminals/agents/agent-routes.js';
import { nodeIdentity } from './node-identity.js';
import { connectToNode } from './node-pairing.js';
import { connectSchema, newNodeSchema, redeemSchema } from './node-schema.js';
import { isWellFormedCredential } from './node-secrets.js';
import {
  createNode,
  findNode,
  listNodes,
  nodeByCredential,
  nodeView,
  openPairing,
  redeemPairingCode,
  revokeNode,
} from './node-store.js';
import { fetchNodeAgents } from './remote-agents.js';

const bearerPrefix = 'bearer ';

async function nodeOr404(c: Context<AppEnv>, db: DaemonContext['db']) {
  const node = await findNode(db, readId(c));
  if (!node) throw notFound('node');
  return node;
}

/** Routes another daemon calls; registered before the session guard. */
export function registerNodePeerRoutes(
  app: Hono<AppEnv>,
  { db, terminals, dataDir }: DaemonContext,
  audit: AuditLog,
): void {
  app.post('/nodes/pair', async (c) => {
    const input = await readJson(c, redeemSchema);
    const record = (outcome: string, status: number) =>
      audit.append({
        actor: `node:${input.node_id}`,
        action: 'POST /nodes/pair',
        target: `/nodes/${input.node_id}`,
        outcome,
        requestId: c.var.requestId,
        client: clientAddress(c),
        detail: { status },
      });
    let credential: string;
    try {
      credential = await redeemPairingCode(db, input.node_id, input.code);
    } catch (error) {
      await record('denied', error instanceof ApiError ? error.status : 500);
      throw error;
    }
    await record('success', 201);
    const identity = nodeIdentity(dataDir);
    return c.json(
      {
        node_id: input.node_id,
        credential,
        public_key: identity.publicKey,
        signature: identity.signPairing(input.challenge, credential),
      },
      201,
    );
  });

  // Only this route accepts a node credential: a paired node reads agents and nothing else.
  app.get('/agents', async (c, next) => {
    const authorization = c.req.header('authorization');
    if (authorization === undefined || !authorization.toLowerCase().startsWith(bearerPrefix)) return next();
    const credential = authorization.slice(bearerPrefix.length).trim();
    const node = isWellFormedCredential(credential) ? await nodeByCredential(db, credential) : undefined;
    if (!node) throw new ApiError('NODE_CREDENTIAL_INVALID', 'unknown or revoked node credential');
    return c.json({ agents: await agentsOf(terminals.list()) });
  });
}

export function registerNodeRoutes(app: Hono<AppEnv>, context: DaemonContext): void {
  const { db, dataDir } = context;
  app.get('/nodes', requirePermission('settings.view'), async (c) =>
    c.json({ nodes: (await listNodes(db)).map(nodeView) }),
  );

  app.get('/nodes/self', requirePermission('settings.view'), (c) => {
    const { publicKey, fingerprint } = nodeIdentity(dataDir);
    return c.json({ public_key: publicKey, fingerprint });
  });

  app.post('/nodes', requirePermission('settings.manage'), async (c) => {
    const input = await readJson(c, newNodeSchema);
    return c.json(nodeView(await createNode(db, input, c.var.principal.id)), 201);
  });

  app.post('/nodes/:id/pairing', requirePermission('settings.manage'), async (c) => {
    const node = await nodeOr404(c, db);
    const { code, expiresAt } = await openPairing(db, node);
    return c.json({ node_id: node.id, code, expires_at: new Date(expiresAt).toISOString() }, 201);
  });

  app.post('/nodes/:id/connect', requirePermission('settings.manage'), async (c) => {
    const node = await nodeOr404(c, db);
    const input = await readJson(c, connectSchema);
    return c.json(nodeView(await connectToNode(db, node, input.remote_node_id, input.code)));
  });

  app.post('/nodes/:id/revoke', requirePermission('settings.manage'), async (c) =>
    c.json(nodeView(await revokeNode(db, await nodeOr404(c, db)))),
  );

  app.get('/nodes/:id/agents', requirePermission('settings.view'), async (c) => {
    const node = await nodeOr404(c, db);
    return c.json({ node_id: node.id, agents: await fetchNodeAgents(node) });
  });
}
