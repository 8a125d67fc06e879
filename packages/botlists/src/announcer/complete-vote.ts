/**
 * @module Fills in what the SDK adds to a spec UniversalVote (`listName`, `voterAvatar`,
 * `receivedAt`), so a vote built by the caller announces like one the webhook server parsed.
 */
import { builtInLists } from '../registry/lists.generated.js';
import type { UniversalVote, UniversalVoteInput } from '../types.js';

/** The registry's display name of a list id, or the id itself for a list it does not know. */
export function listNameOf(vote: UniversalVoteInput): string {
  return vote.listName ?? builtInLists.find((list) => list.id === vote.listId)?.name ?? vote.listId;
}

export function completeVote(vote: UniversalVoteInput, now: number): UniversalVote {
  return {
    ...vote,
    listName: listNameOf(vote),
    voterAvatar: vote.voterAvatar ?? null,
    receivedAt: vote.receivedAt ?? now,
  };
}
