/**
 * @module Turns an authenticated webhook body into a ParsedWebhook: vote, test, comment, review, rating or other.
 */
import { asString, isObject, pick } from '../reading/field-paths.js';
import { detectTest, UniversalParser } from '../reading/universal-parser.js';
import { unwrapVoteEnvelope } from '../reading/vote-envelope.js';
import type { BotlistRecord, ParsedWebhook, WebhookKind } from '../types.js';

/** top.gg v1 events that are neither votes nor tests (integration lifecycle). */
const NON_VOTE_TYPES = /^integration\./i;

function classifyKind(list: BotlistRecord, body: unknown, forceTest: boolean): WebhookKind | 'other' {
  const flat = unwrapVoteEnvelope(body);
  const type = asString(pick(flat, [list.webhook.eventField, 'type', 'event'])) ?? '';
  if (NON_VOTE_TYPES.test(type)) return 'other';
  if (forceTest || detectTest(flat, list.webhook.eventField)) return 'test';
  if (/review/i.test(type) || isObject(flat.review)) return 'review';
  if (/comment/i.test(type) || isObject(flat.comment)) return 'comment';
  if (/rating/i.test(type)) return 'rating';
  return 'vote';
}

/** Parses a body of `list`. Throws a BotlistsError when a vote names no voter. */
export function parseWebhook(
  list: BotlistRecord,
  body: unknown,
  isTest: boolean,
  now: number,
): ParsedWebhook {
  const kind = classifyKind(list, body, isTest);
  const parsed: ParsedWebhook = { listId: list.id, kind, vote: null, comment: null, body };
  if (kind === 'vote' || kind === 'test')
    parsed.vote = UniversalParser.parseVoteWebhook(list, body, kind === 'test', now);
  else if (kind !== 'other') parsed.comment = UniversalParser.parseCommentWebhook(list, body, kind, now);
  return parsed;
}
