/**
 * @module Flattens the vote envelopes lists wrap around a vote, so one set of field paths reads them all.
 */
import { isObject } from './field-paths.js';

/**
 * - top.gg v1: `{type: "vote.create" | "webhook.test", data: {user: {platform_id, name, avatar_url}, project: {platform_id}, weight, query}}`
 *   → voter = the Discord id (`platform_id`), not top.gg's own user id.
 * - `{vote: {userId, botId, type}}` (the spec's v1 shape).
 * - discordforge: `{type: "vote.created", bot_id, data: {voter_id}}`.
 * Other bodies are returned as they are.
 */
export function unwrapVoteEnvelope(body: unknown): Record<string, unknown> {
  if (!isObject(body)) return {};
  if (isObject(body.vote)) return { ...body.vote, type: body.vote.type ?? body.type };
  const data = body.data;
  if (typeof body.type === 'string' && isObject(data)) {
    const user = isObject(data.user) ? data.user : null;
    const project = isObject(data.project) ? data.project : null;
    const flat: Record<string, unknown> = { ...body, ...data, type: body.type };
    if (user) {
      flat.userId = user.platform_id ?? user.id;
      flat.username = user.name ?? user.username;
    }
    if (project) flat.botId = project.platform_id ?? project.id;
    if (data.voter_id !== undefined) flat.userId = data.voter_id;
    return flat;
  }
  return body;
}
