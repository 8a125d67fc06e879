/**
 * @module Public surface of botlists: post bot stats to listing sites, receive votes, normalise listings, probe status, announce votes.
 */
export {
  type AnnounceFormat,
  type AnnounceLink,
  COMPONENTS_V2_FLAG,
  renderTemplate,
} from './announcer/discord-payloads.js';
export {
  type AnnouncePayload,
  type AnnouncerEvents,
  type DeliveryEvent,
  VoteAnnouncer,
  type VoteAnnouncerOptions,
} from './announcer/vote-announcer.js';
export { Botlists, type BotlistsOptions, type BotlistsStatusOptions } from './botlists.js';
export { BotlistsError } from './errors.js';
export type { LedgerEntry, LedgerStore, ReminderCutoff, VoteQuery } from './ledger/ledger-store.js';
export { MemoryLedgerStore } from './ledger/memory-store.js';
export { type PostgresLedgerOptions, PostgresLedgerStore } from './ledger/postgres-store.js';
export { type SqliteLedgerOptions, SqliteLedgerStore } from './ledger/sqlite-store.js';
export {
  type LedgerOptions,
  type LedgerVote,
  type ReminderEvent,
  VoteLedger,
} from './ledger/vote-ledger.js';
export { nextAutoPostDelay } from './posting/auto-post.js';
export { buildBotBlockBody } from './posting/botblock.js';
export type { ApplicationCommandJson } from './posting/commands-poster.js';
export { buildPostBody, buildPostRequest } from './posting/post-request.js';
export type { FanOutOptions } from './posting/stats-poster.js';
export { UniversalParser } from './reading/universal-parser.js';
export { builtInLists as lists } from './registry/lists.generated.js';
export type { ListOverride } from './registry/merge-lists.js';
export { resolveList } from './registry/resolve-list.js';
export { resolveTokens } from './registry/tokens.js';
export { ConsoleReport } from './status/console-report.js';
export { StatusChecker, type StatusCheckerOptions } from './status/status-checker.js';
export {
  type LocalizedText,
  TOPGG_V1_BASE,
  type TopggListedVote,
  type TopggProject,
  type TopggProjectEdit,
  TopggV1Client,
  type TopggVote,
  type TopggVotesPage,
} from './topgg/topgg-v1.js';
export type * from './types.js';
export { verifySignedDelivery } from './webhooks/signatures.js';
export {
  DEFAULT_WEBHOOK_PATH,
  type IngestOptions,
  VoteWebhookServer,
  type WebhookOptions,
  type WebhookSecurityOptions,
} from './webhooks/vote-webhook-server.js';
