/**
 * @module One request line -> one answer: parse, check it against the allow-list of operations
 * and their parameter shapes, run it. Every failure becomes an error answer; nothing throws out.
 */
import type { z } from 'zod';
import {
  type Operation,
  operations,
  paramsSchemas,
  type Response,
  requestSchema,
} from '../agent-protocol/protocol.js';
import { AgentError } from './agent-error.js';
import type { FirewallAgent } from './firewall-agent.js';

const allowed = new Set<string>(operations);

export async function dispatch(agent: FirewallAgent, line: string): Promise<Response> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return failure(undefined, new AgentError('AGENT_REQUEST_INVALID', 'the message is not valid JSON'));
  }
  const request = requestSchema.safeParse(raw);
  if (!request.success) {
    return failure(undefined, new AgentError('AGENT_REQUEST_INVALID', 'a request is {id?, op, params?}'));
  }
  const { id, op } = request.data;
  if (!allowed.has(op))
    return failure(id, new AgentError('AGENT_UNKNOWN_OPERATION', `no operation "${op.slice(0, 64)}"`));
  const params = paramsSchemas[op as Operation].safeParse(request.data.params ?? {});
  if (!params.success) {
    const errors = params.error.issues.map((issue) => ({
      path: issue.path.join('.'),
      message: issue.message,
    }));
    return failure(id, new AgentError('AGENT_REQUEST_INVALID', `invalid params for ${op}`, { errors }));
  }
  try {
    return { id, ok: true, result: await run(agent, op as Operation, params.data) };
  } catch (error) {
    return failure(
      id,
      error instanceof AgentError ? error : new AgentError('INTERNAL_ERROR', 'the operation failed'),
    );
  }
}

function run(
  agent: FirewallAgent,
  op: Operation,
  params: z.output<(typeof paramsSchemas)[Operation]>,
): Promise<unknown> {
  const p = params as Record<string, never>;
  switch (op) {
    case 'status':
      return agent.status();
    case 'read_rules':
      return agent.readRules(p.address);
    case 'validate':
      return agent.validate(p.rules);
    case 'apply':
      return agent.apply({ rules: p.rules, blocklists: p.blocklists }, p.acknowledge_unmanaged, p.retention);
    case 'snapshot':
      return agent.snapshot(p.kind, p.note ?? null, p.retention);
    case 'list_snapshots':
      return agent.listSnapshots();
    case 'read_snapshot':
      return agent.readSnapshot(p.snapshot_id);
    case 'restore':
      return agent.restore(p.snapshot_id, p.retention);
    case 'begin_safe_apply':
      return agent.beginSafeApply(
        { rules: p.rules, blocklists: p.blocklists },
        p.timeout_seconds,
        p.acknowledge_unmanaged,
        p.retention,
      );
    case 'confirm':
      return agent.confirm(p.transaction_id);
    case 'exposure':
      return agent.exposure();
    case 'blocklists':
      return agent.blocklists(p.name);
  }
}

function failure(id: string | number | undefined, error: AgentError): Response {
  return {
    id,
    ok: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}
