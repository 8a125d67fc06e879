/**
 * @module Every public type of the SDK: registry records, stats, reports, normalised bot/vote shapes.
 */
import type { ReminderEvent } from './ledger/vote-ledger.js';

/** What a listing site supports through this SDK. */
export interface ListSupports {
  post: boolean;
  get: boolean;
  widget: boolean;
  webhook: boolean;
}

/** How a list's inbound vote webhook identifies its sender and fields. */
export interface ListWebhookInfo {
  /** Header carrying the shared secret (or the list's signature header). */
  header: string | null;
  /** Body path of the voter's id, e.g. `user` or `user.id`. */
  voterField: string | null;
  /** Body path of the event type, e.g. `type`. */
  eventField: string | null;
}

/** Site status recorded in the registry by the status sync. */
export type ListStatus = 'live' | 'deprecated' | 'shutdown' | 'unknown';

/** How the token is written in the auth header. */
export type AuthScheme = 'raw' | 'Bearer' | 'Bot';

/** A list's totals-only stats route (top.gg v1 `PATCH /projects/@me/metrics`). */
export interface MetricsEndpoint {
  url: string;
  method: 'POST' | 'PUT' | 'PATCH';
  authScheme: AuthScheme;
}

/** A list's commands endpoint: the body is the JSON array of application commands. */
export interface CommandsEndpoint {
  /** URL with an optional `:id` (the bot id). */
  url: string;
  method: 'POST' | 'PUT';
  /** How the token is written (default: the list's `authScheme`). */
  authScheme?: AuthScheme;
}

/** One listing site. Every URL may hold `:id` (the bot id); all of them can be overridden. */
export interface BotlistRecord {
  id: string;
  name: string;
  website: string;
  apiDocs: string | null;
  /** Stats endpoint with an `:id` placeholder, or null when the list takes no posts. */
  apiPost: string | null;
  /** Body field (or query parameter when `countInQuery`) carrying the server count. */
  postField: string | null;
  postMethod: 'POST' | 'PUT' | 'PATCH' | null;
  shardField: string | null;
  shardIdField: string | null;
  shardsArrayField: string | null;
  apiGet: string | null;
  viewBot: string | null;
  widget: string | null;
  /** `Authorization` or `authorization`, exactly as the list documents it. */
  authHeader: string | null;
  /** Portable environment variable name, e.g. `LIST_TOKEN_TOP_GG`. */
  tokenEnvKey: string;
  webhook: ListWebhookInfo;
  supports: ListSupports;
  status?: ListStatus;
  /** Prefix written before the token (default raw). */
  authScheme?: AuthScheme;
  /** The count travels as a query parameter with no body (dlist.gg). */
  countInQuery?: boolean;
  /** Body field carrying the token instead of a header (carbonitex). */
  tokenBodyField?: string | null;
  /** Vote check URL with `:id` and `:userId`. */
  apiVoted?: string | null;
  /** Search URL with `:query` and `:limit`. */
  apiSearch?: string | null;
  /** Whether read endpoints (apiGet, apiVoted, apiSearch) need the token. */
  readNeedsAuth?: boolean;
  /** Header name of a `t=<unix>,v1=<hex>` signed delivery scheme. */
  signatureHeader?: string | null;
  /** Votes count double on weekends. */
  weekendMultiplier?: boolean;
  /** Hours a voter waits before voting again on this list, or null when the list documents none. */
  voteCooldownHours?: number | null;
  /**
   * A list's current stats route when it carries only the totals (top.gg v1 metrics: `postField` and
   * `shardField`, no shard id or per-shard array). Used unless the list is in `legacyApi` or a shard
   * posts its own count (`shardId`), which only `apiPost`, the legacy route, can attribute.
   */
  metricsPost?: MetricsEndpoint | null;
  /** Where the bot's application commands list is sent (`postCommands`), when the list takes one. */
  commands?: CommandsEndpoint | null;
  /**
   * Base URL of the list's current API (top.gg: `https://top.gg/api/v1`): `lists.topgg` builds its
   * routes on it, and overriding it moves the built-in `metricsPost` and `commands` routes under it too.
   */
  apiBase?: string | null;
  /** Body path of the list's own id of a vote delivery (the ledger's deduplication key), when it sends one. */
  voteIdField?: string | null;
  /** Other names `resolveList` accepts. */
  aliases?: string[];
}

/** Counts to publish. `shards` holds the per-shard server counts. */
export interface Stats {
  serverCount: number;
  shardCount?: number;
  shards?: number[];
  /** Set only when each shard posts its own count. */
  shardId?: number;
}

/** Async function returning the counts to post. */
export type StatsProvider = () => Promise<Stats> | Stats;

/** The parts of a discord.js-like client the SDK reads. */
export interface BotClientLike {
  user?: { id: string; username?: string } | null;
  guilds: { cache?: { size: number }; size?: number };
  shard?: {
    count: number;
    /** Shards this process runs (discord.js `ShardClientUtil.ids`). */
    ids?: number[];
    fetchClientValues?: (prop: string) => Promise<unknown[]>;
    broadcastEval?: (fn: (client: never) => unknown) => Promise<unknown[]>;
  } | null;
}

/** Outcome of posting to one list. */
export interface PostResult {
  listId: string;
  outcome: 'posted' | 'failed' | 'skipped';
  /** HTTP status, or null when no answer was received. */
  status: number | null;
  /** Why the post failed or was skipped. */
  reason?: string;
  /** Seconds the list asked to wait, when it did. */
  retryAfter?: number | null;
  /** Whether the post was retried once after a short 429. */
  retried?: boolean;
}

/** Outcome of one `postCommands` fan-out. */
export interface CommandsReport {
  posted: PostResult[];
  failed: PostResult[];
  skipped: PostResult[];
  commands: number;
}

/** Outcome of one fan-out. */
export interface PostReport {
  posted: PostResult[];
  failed: PostResult[];
  skipped: PostResult[];
  stats: Stats;
}

/** Normalised listing data of a bot. Numbers are numbers or null, never undefined. */
export interface UniversalBot {
  listId: string;
  listName: string;
  id: string;
  name: string;
  avatar: string | null;
  owners: string[];
  serverCount: number | null;
  votes: number | null;
  monthlyVotes: number | null;
  certified: boolean | null;
  ratings: { average: number | null; count: number | null };
  tags: string[];
  description: string | null;
  invite: string | null;
  prefix: string | null;
  library: string | null;
  github: string | null;
  supportServer: string | null;
  raw: unknown;
  fetchedAt: number;
}

/** A normalised vote (the `vote` and `test` event payload). */
export interface UniversalVote {
  listId: string;
  listName: string;
  voterId: string;
  voterName: string | null;
  voterAvatar: string | null;
  botId: string | null;
  weight: number;
  weekend: boolean;
  isTest: boolean;
  query: Record<string, string>;
  receivedAt: number;
  raw: unknown;
}

/**
 * A vote handed to the SDK (announcer, templates): the spec's fields; the ones this SDK adds
 * (`listName`, `voterAvatar`, `receivedAt`) are optional and filled in when missing.
 */
export type UniversalVoteInput = Omit<UniversalVote, 'listName' | 'voterAvatar' | 'receivedAt'> &
  Partial<Pick<UniversalVote, 'listName' | 'voterAvatar' | 'receivedAt'>>;

/** A normalised comment, review or rating. */
export interface UniversalComment {
  listId: string;
  listName: string;
  kind: 'comment' | 'review' | 'rating';
  authorId: string | null;
  authorName: string | null;
  botId: string | null;
  /** 1 to 5 when the list sent one. */
  rating: number | null;
  content: string;
  receivedAt: number;
  raw: unknown;
}

/** Kinds of inbound webhook events. */
export type WebhookKind = 'vote' | 'test' | 'comment' | 'review' | 'rating';

/** Every parsed webhook (the `raw` event payload). */
export interface ParsedWebhook {
  listId: string;
  /** `other` for deliveries that are neither votes nor comments (top.gg `integration.*`). */
  kind: WebhookKind | 'other';
  vote: UniversalVote | null;
  comment: UniversalComment | null;
  body: unknown;
}

/** One HTTP request received by the webhook server (the `request` event payload). */
export interface RequestLog {
  method: string;
  path: string;
  ip: string;
  listId: string | null;
  status: number;
  durationMs: number;
}

/** One probed site. */
export interface StatusEntry {
  listId: string;
  listName: string;
  website: string;
  state: ListStatus;
  httpStatus: number | null;
  latencyMs: number | null;
  lastChecked: number;
  /** Why the state was chosen (e.g. `parked domain`, `DNS failure`). */
  detail: string;
}

/** Result of probing every list. */
export interface StatusBoard {
  summary: Record<ListStatus, number>;
  entries: StatusEntry[];
  checkedAt: number;
}

/** A probed site handed to a report: the spec's seven fields; `detail` is ours and optional. */
export type StatusEntryInput = Omit<StatusEntry, 'detail' | 'lastChecked'> & {
  detail?: string;
  /** Epoch milliseconds as the SDK writes it; an ISO string or a Date are read too. */
  lastChecked: number | string | Date;
};

/** A board handed to a report (`ConsoleReport`, `toMarkdown`): `checkedAt` is ours and optional. */
export interface StatusBoardInput {
  summary: Record<ListStatus, number>;
  entries: readonly StatusEntryInput[];
  checkedAt?: number;
}

/** The fetch signature the SDK needs; inject your own for proxies or tests. */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** Outbound request defaults. */
export interface FetchOptions {
  fetch?: FetchLike;
  /** Per-attempt timeout (default 10 000 ms). */
  timeoutMs?: number;
  /** Retries on network errors and 5xx (default 2). */
  retries?: number;
  /** Delay before retry N is N times this (default 1500 ms). */
  retryDelayMs?: number;
  userAgent?: string;
}

/** Events of a VoteWebhookServer (also re-emitted by Botlists). */
export interface WebhookEvents {
  vote: UniversalVote;
  test: UniversalVote;
  comment: UniversalComment;
  review: UniversalComment;
  rating: UniversalComment;
  raw: ParsedWebhook;
  request: RequestLog;
  error: Error;
}

/** Events of Botlists. */
export interface BotlistsEvents extends WebhookEvents {
  statsPosted: PostReport;
  status: StatusBoard;
  /** An opted-in voter can vote again (the ledger's reminder). */
  reminder: ReminderEvent;
}
