/**
 * @module The Botlists client: stats posting, webhooks, reading, status and announcements behind one event emitter.
 */
import { VoteAnnouncer, type VoteAnnouncerOptions } from './announcer/vote-announcer.js';
import { BotlistsError } from './errors.js';
import { TypedEmitter } from './events/typed-emitter.js';
import { HttpClient, MAX_RETRY_AFTER_SECONDS } from './http/http-client.js';
import { type LedgerOptions, VoteLedger } from './ledger/vote-ledger.js';
import { nextAutoPostDelay } from './posting/auto-post.js';
import { BOTBLOCK_COUNT_URL, BOTBLOCK_WINDOW_MS, postViaBotBlock } from './posting/botblock.js';
import { type ApplicationCommandJson, postCommandsToAll } from './posting/commands-poster.js';
import { applyId } from './posting/post-request.js';
import {
  assertKnownIds,
  DEFAULT_POST_SPACING_MS,
  type FanOutOptions,
  postToAll,
  postToList,
  type StatsPosterContext,
} from './posting/stats-poster.js';
import * as read from './reading/read-api.js';
import { type ListOverride, mergeLists } from './registry/merge-lists.js';
import { requireList } from './registry/resolve-list.js';
import { resolveTokens } from './registry/tokens.js';
import { statsFromClient } from './stats/client-stats.js';
import { validateStats } from './stats/validate-stats.js';
import { ConsoleReport } from './status/console-report.js';
import { StatusChecker, type StatusCheckerOptions } from './status/status-checker.js';
import { StatusSchedule, statusIntervalMs } from './status/status-schedule.js';
import { TOPGG_V1_BASE, TopggV1Client } from './topgg/topgg-v1.js';
import type {
  BotClientLike,
  BotlistRecord,
  BotlistsEvents,
  CommandsReport,
  FetchOptions,
  PostReport,
  PostResult,
  Stats,
  StatsProvider,
  StatusBoard,
  UniversalBot,
} from './types.js';
import {
  type VoteWebhookServer as Server,
  VoteWebhookServer,
  type WebhookOptions,
} from './webhooks/vote-webhook-server.js';

/** Status options of a `Botlists` client: the StatusChecker's, plus the probe interval. */
export interface BotlistsStatusOptions extends Omit<StatusCheckerOptions, 'fetch' | 'lists'> {
  /** Gap between two probes while auto-posting or serving webhooks (default 1 h, minimum 5 min). */
  intervalMs?: number;
}

export interface BotlistsOptions {
  /** Default: `client.user.id`. */
  botId?: string;
  client?: BotClientLike | null;
  statsProvider?: StatsProvider | null;
  /** Token per list id (or alias); overrides `LIST_TOKEN_<ID>` from the environment. */
  tokens?: Record<string, string>;
  /** Auth header name per list id, when a list changes its own. */
  authHeaders?: Record<string, string>;
  /** Overrides of built-in records (matched by id: any URL can be redirected) and custom lists. */
  lists?: ListOverride[];
  webhook?: WebhookOptions;
  announcer?: VoteAnnouncerOptions;
  /** Records every accepted vote once (`lists.ledger`); `{}` keeps them in memory. */
  ledger?: LedgerOptions;
  fetchOptions?: FetchOptions;
  /** Never probe sites (no hourly probes; refreshStatus throws; posts never skip shut-down lists). */
  disableStatusCheck?: boolean;
  /** Probe every site once at construction. */
  startupStatusCheck?: boolean;
  /** Gap between two lists of one fan-out (default 1000 ms). */
  postSpacingMs?: number;
  /** BotBlock count endpoint (default https://botblock.org/api/count). */
  botblockUrl?: string;
  /** StatusChecker options (concurrency, timeout, cache, baseUrl) and the probe interval. */
  status?: BotlistsStatusOptions;
  /**
   * Lists posted through their legacy stats route: `['top.gg']` posts top.gg's v0
   * `POST /api/bots/:id/stats` (raw token) instead of v1 metrics (Bearer), and checks a vote with
   * v0's `GET /api/bots/:id/check` instead of v1's `getVote`.
   */
  legacyApi?: string[];
  /** Environment to read tokens from (default process.env). */
  env?: Record<string, string | undefined>;
  now?: () => number;
}

/** Events forwarded from the webhook server. */
const WEBHOOK_EVENTS = ['vote', 'test', 'comment', 'review', 'rating', 'raw', 'request'] as const;

export class Botlists extends TypedEmitter<BotlistsEvents> {
  readonly lists: readonly BotlistRecord[];
  readonly announcer: VoteAnnouncer | null;
  /** The vote ledger when the `ledger` option is set. */
  readonly ledger: VoteLedger | null;
  private readonly options: BotlistsOptions;
  private readonly http: HttpClient;
  private readonly tokens: Map<string, string>;
  private readonly now: () => number;
  private readonly statusChecker: StatusChecker;
  private readonly statusSchedule: StatusSchedule;
  private webhookServer: VoteWebhookServer | null = null;
  private topggClient: TopggV1Client | null = null;
  private readonly legacyApi: ReadonlySet<string>;
  private autoPostTimer: ReturnType<typeof setTimeout> | null = null;
  private lastBotBlockAt = Number.NEGATIVE_INFINITY;
  /** Lists that answered with a long Retry-After (top.gg's one-hour block): skipped until then. */
  private readonly blockedUntil = new Map<string, number>();

  constructor(options: BotlistsOptions = {}) {
    super();
    this.options = options;
    this.now = options.now ?? Date.now;
    const headerOverrides: ListOverride[] = Object.entries(options.authHeaders ?? {}).map(
      ([id, authHeader]) => ({ id, authHeader }),
    );
    this.lists = mergeLists([...(options.lists ?? []), ...headerOverrides]);
    this.tokens = resolveTokens(this.lists, options.tokens, options.env);
    assertKnownIds(options.legacyApi, this.lists);
    this.legacyApi = new Set(options.legacyApi ?? []);
    this.http = new HttpClient(options.fetchOptions);
    const { intervalMs, ...checkerOptions } = options.status ?? {};
    const statusOptions: StatusCheckerOptions = { ...checkerOptions, lists: this.lists, now: this.now };
    if (options.fetchOptions?.fetch) statusOptions.fetch = options.fetchOptions.fetch;
    this.statusChecker = new StatusChecker(statusOptions);
    this.statusSchedule = new StatusSchedule({
      intervalMs: statusIntervalMs(intervalMs),
      probe: () =>
        this.refreshStatus().then(
          () => {},
          (error: Error) => this.emitError(error),
        ),
      // Only a long-running client probes: a one-shot script has no later post for the board to guide.
      active: () =>
        !options.disableStatusCheck && (this.isAutoPosting || this.webhookServer?.isRunning === true),
    });
    this.announcer = options.announcer?.enabled ? this.createAnnouncer(options.announcer) : null;
    this.ledger = options.ledger ? this.createLedger(options.ledger) : null;
    if (options.startupStatusCheck && !options.disableStatusCheck) {
      this.refreshStatus().catch((error: Error) => this.emitError(error));
    }
  }

  private createAnnouncer(options: VoteAnnouncerOptions): VoteAnnouncer {
    const announcerOptions = { ...options };
    if (!announcerOptions.fetch && this.options.fetchOptions?.fetch)
      announcerOptions.fetch = this.options.fetchOptions.fetch;
    const announcer = new VoteAnnouncer(announcerOptions);
    announcer.on('error', (error: Error) => this.emitError(error));
    this.on('vote', (vote) => announcer.announce(vote));
    this.on('test', (vote) => announcer.announce(vote));
    return announcer;
  }

  private createLedger(options: LedgerOptions): VoteLedger {
    const ledger = new VoteLedger(options, () => this.lists, this.now);
    ledger.on('error', (error: Error) => this.emitError(error));
    ledger.on('reminder', (event) => this.emit('reminder', event));
    this.on('vote', (vote) => {
      ledger.record(vote).catch((error: Error) => this.emitError(error));
    });
    return ledger;
  }

  /** Emits `error` only when someone listens: a bad webhook must never crash the bot. */
  private emitError(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  private botId(): string {
    const id = this.options.botId ?? this.options.client?.user?.id;
    if (!id) throw new BotlistsError('botId is required (or a client with user.id)');
    return id;
  }

  private list(query: string | BotlistRecord): BotlistRecord {
    return requireList(query, this.lists);
  }

  /** Stats passed in, else from `statsProvider`, else from `client` (all shards), validated. */
  async resolveStats(stats?: Stats): Promise<Stats> {
    if (stats) return validateStats(stats);
    if (this.options.statsProvider) return validateStats(await this.options.statsProvider());
    if (this.options.client) return validateStats(await statsFromClient(this.options.client));
    throw new BotlistsError('no stats: pass them, or set statsProvider or client');
  }

  private posterContext(): StatsPosterContext {
    return {
      http: this.http,
      lists: () => this.lists,
      tokens: () => this.tokens,
      botId: () => this.botId(),
      spacingMs: Math.max(0, this.options.postSpacingMs ?? DEFAULT_POST_SPACING_MS),
      legacyApi: this.legacyApi,
    };
  }

  /** Skip reason for a list this client knows must not be posted to now, else null. */
  private holdReason(listId: string): string | null {
    const until = this.blockedUntil.get(listId);
    if (until !== undefined && until > this.now())
      return `rate limited for ${Math.ceil((until - this.now()) / 1000)} s`;
    const board = this.options.disableStatusCheck ? null : this.statusChecker.lastBoard;
    const entry = board?.entries.find((e) => e.listId === listId);
    if (entry && (entry.state === 'shutdown' || entry.state === 'deprecated')) return `site ${entry.state}`;
    return null;
  }

  private remember(result: PostResult): void {
    if (result.retryAfter && result.retryAfter > MAX_RETRY_AFTER_SECONDS)
      this.blockedUntil.set(result.listId, this.now() + result.retryAfter * 1000);
  }

  /**
   * Sends the bot's application commands (`command.toJSON()` of each) to every list that shows them
   * and has a token (top.gg v1, discordbotlist.com); `opts.only` / `opts.skip` filter by id.
   */
  async postCommands(
    commands: readonly ApplicationCommandJson[],
    opts: FanOutOptions = {},
  ): Promise<CommandsReport> {
    assertKnownIds(opts.only, this.lists);
    assertKnownIds(opts.skip, this.lists);
    this.botId();
    return postCommandsToAll(this.posterContext(), commands, opts);
  }

  /** top.gg API v1: `getSelf`, `editSelf`, `getVote`, `getVotes`, `postCommands` (token of `top.gg`). */
  get topgg(): TopggV1Client {
    this.topggClient ??= new TopggV1Client({
      http: this.http,
      token: () => this.tokens.get('top.gg'),
      // The registry's base (or a `lists` override of it), which the metrics and commands routes share.
      base: this.list('top.gg').apiBase ?? TOPGG_V1_BASE,
    });
    return this.topggClient;
  }

  /**
   * Records top.gg votes since a date into the ledger from v1's paginated votes (a vote the webhook
   * already recorded is not counted twice: same user within the 12 h cooldown). Resolves with the number stored.
   */
  async backfillLedger(since: Date): Promise<number> {
    const ledger = this.ledger;
    if (!ledger) throw new BotlistsError('backfillLedger needs the ledger option');
    // The configured record (a `lists` override may rename it), as webhook votes carry it.
    const topgg = this.list('top.gg');
    let stored = 0;
    let page = await this.topgg.getVotes(since);
    for (;;) {
      for (const v of page.votes) {
        const added = await ledger.record({
          listId: topgg.id,
          listName: topgg.name,
          voterId: v.platformId || v.userId,
          voterName: null,
          voterAvatar: null,
          botId: this.options.botId ?? null,
          weight: v.weight,
          weekend: v.weight > 1,
          isTest: false,
          query: {},
          receivedAt: v.votedAt.getTime(),
          raw: v,
        });
        if (added) stored++;
      }
      if (page.votes.length === 0 || page.cursor === null) return stored;
      page = await page.next();
    }
  }

  /** Posts to every list with a token (`opts.only` / `opts.skip` filter by id); emits `statsPosted`. */
  async postStats(stats?: Stats, opts: FanOutOptions = {}): Promise<PostReport> {
    assertKnownIds(opts.only, this.lists);
    assertKnownIds(opts.skip, this.lists);
    this.botId(); // fail the call, not every list, when the bot id is unknown
    const resolved = await this.resolveStats(stats);
    const held = this.lists.filter(
      (l) => l.supports.post && this.tokens.has(l.id) && this.holdReason(l.id) !== null,
    );
    const report = await postToAll(this.posterContext(), resolved, {
      ...opts,
      skip: [...(opts.skip ?? []), ...held.map((l) => l.id)],
    });
    for (const list of held) {
      if (opts.only && !opts.only.includes(list.id)) continue;
      if (opts.skip?.includes(list.id)) continue;
      report.skipped.push({
        listId: list.id,
        outcome: 'skipped',
        status: null,
        reason: this.holdReason(list.id) ?? 'held',
      });
    }
    for (const result of report.failed) this.remember(result);
    this.emit('statsPosted', report);
    return report;
  }

  /** Posts to one list (id, domain or alias). */
  async postStatsTo(list: string | BotlistRecord, stats?: Stats): Promise<PostResult> {
    const record = this.list(list);
    const result = await postToList(this.posterContext(), record, await this.resolveStats(stats));
    this.remember(result);
    return result;
  }

  /**
   * One request to BotBlock, which posts to every list it knows with the tokens you hold. Never
   * retried; a second call inside its 120 s window throws a BotlistsError (status 429) without a request.
   */
  async postViaBotBlock(stats?: Stats): Promise<PostReport> {
    const elapsed = this.now() - this.lastBotBlockAt;
    if (elapsed < BOTBLOCK_WINDOW_MS) {
      const retryAfter = Math.ceil((BOTBLOCK_WINDOW_MS - elapsed) / 1000);
      throw new BotlistsError(`BotBlock allows one post per 120 s; retry in ${retryAfter} s`, {
        listId: 'botblock',
        status: 429,
        retryAfter,
      });
    }
    const botId = this.botId();
    const resolved = await this.resolveStats(stats);
    const windowStart = this.lastBotBlockAt;
    this.lastBotBlockAt = this.now();
    let report: PostReport;
    try {
      report = await postViaBotBlock(
        {
          http: this.http,
          url: this.options.botblockUrl ?? BOTBLOCK_COUNT_URL,
          lists: this.lists,
          tokens: this.tokens,
          botId,
        },
        resolved,
      );
    } catch (error) {
      // BotBlock validates before charging its limit: a 400 leaves the window open.
      if (error instanceof BotlistsError && error.status === 400) this.lastBotBlockAt = windowStart;
      throw error;
    }
    this.emit('statsPosted', report);
    return report;
  }

  /**
   * Posts now, then every `intervalMs` (default 30 min, minimum 60 s, ±5 % jitter). Failures are
   * emitted as `error`; the schedule keeps running. Also starts the hourly status probe (unless
   * `disableStatusCheck`). The timers never keep the process alive.
   */
  startAutoPost(intervalMs?: number, stats?: Stats): void {
    this.clearAutoPostTimer();
    // Every shard process may call this; only the one running shard 0 posts the gathered total.
    const shardIds = this.options.client?.shard?.ids;
    if (!stats && shardIds && !shardIds.includes(0)) {
      this.statusSchedule.sync();
      return;
    }
    const run = async () => {
      try {
        await this.postStats(stats);
      } catch (error) {
        this.emitError(error as Error);
      }
      if (this.autoPostTimer !== null) schedule();
    };
    const schedule = () => {
      this.autoPostTimer = setTimeout(run, nextAutoPostDelay(intervalMs));
      this.autoPostTimer.unref?.();
    };
    this.autoPostTimer = setTimeout(run, 0);
    this.autoPostTimer.unref?.();
    this.statusSchedule.sync();
  }

  /** Stops auto-posting; the status probes stop too unless the webhook server still runs. */
  stopAutoPost(): void {
    this.clearAutoPostTimer();
    this.statusSchedule.sync();
  }

  private clearAutoPostTimer(): void {
    if (this.autoPostTimer !== null) clearTimeout(this.autoPostTimer);
    this.autoPostTimer = null;
  }

  get isAutoPosting(): boolean {
    return this.autoPostTimer !== null;
  }

  /** True while the periodic status probe is scheduled (auto-posting or serving webhooks, checks enabled). */
  get isCheckingStatus(): boolean {
    return this.statusSchedule.isScheduled;
  }

  /** The webhook server (created on first use with the `webhook` options). */
  get webhooks(): Server {
    if (!this.webhookServer) {
      const server = new VoteWebhookServer({ now: this.now, ...this.options.webhook, lists: this.lists });
      const forward = <K extends (typeof WEBHOOK_EVENTS)[number]>(event: K) =>
        server.on(event, (payload) => this.emit(event, payload as BotlistsEvents[K]));
      for (const event of WEBHOOK_EVENTS) forward(event);
      server.on('error', (error) => this.emitError(error));
      this.webhookServer = server;
    }
    return this.webhookServer;
  }

  /**
   * Starts the webhook server (and the hourly status probe unless `disableStatusCheck`); resolves
   * with its address `http://host:port/path`.
   */
  async startWebhooks(port?: number): Promise<string> {
    const address = await this.webhooks.start(port);
    this.statusSchedule.sync();
    return address;
  }

  /** Stops the webhook server; the status probes stop too unless auto-post still runs. */
  async stopWebhooks(): Promise<void> {
    await this.webhookServer?.stop();
    this.statusSchedule.sync();
  }

  /** Feeds a webhook body received by your own framework (parsed, not authenticated: see `webhooks.ingest`). */
  ingestWebhook(list: string, body: unknown, isTest = false): void {
    this.webhooks.ingest(list, body, { isTest });
  }

  private readContext(list: BotlistRecord): read.ReadContext {
    return { http: this.http, token: this.tokens.get(list.id), now: this.now };
  }

  fetchBot(list: string, botId?: string): Promise<UniversalBot> {
    const record = this.list(list);
    return read.fetchBot(this.readContext(record), record, botId ?? this.botId());
  }

  fetchVotes(list: string, botId?: string): Promise<number | null> {
    const record = this.list(list);
    return read.fetchVotes(this.readContext(record), record, botId ?? this.botId());
  }

  /**
   * Whether `userId` (a Discord id) voted within the list's cooldown. top.gg answers through v1's
   * `getVote` (a vote not yet expired), or v0's check route when `legacyApi` names it.
   */
  async hasVoted(list: string, userId: string): Promise<boolean | null> {
    const record = this.list(list);
    if (record.id === 'top.gg' && !this.legacyApi.has('top.gg')) {
      const vote = await this.topgg.getVote(userId, 'discord');
      return vote !== null && vote.expiresAt.getTime() > this.now();
    }
    return read.hasVoted(this.readContext(record), record, this.botId(), userId);
  }

  searchBots(list: string, query: string, limit = 10): Promise<UniversalBot[]> {
    const record = this.list(list);
    return read.searchBots(this.readContext(record), record, query, limit);
  }

  widgetUrl(list: string, botId?: string): string | null {
    const record = this.list(list);
    return record.widget ? applyId(record.widget, botId ?? this.botId()) : null;
  }

  viewBotUrl(list: string, botId?: string): string | null {
    const record = this.list(list);
    return record.viewBot ? applyId(record.viewBot, botId ?? this.botId()) : null;
  }

  /** Probes every list (cached 5 minutes unless `force`; a call during a probe shares it); emits `status`. */
  async refreshStatus(force = false): Promise<StatusBoard> {
    if (this.options.disableStatusCheck)
      throw new BotlistsError('status checks are disabled (disableStatusCheck)');
    const board = await this.statusChecker.refresh(force);
    this.emit('status', board);
    return board;
  }

  /** Probes, prints the table and issue links for dead lists to stdout, returns the board. */
  async checkAndReportStatus(force = false): Promise<StatusBoard> {
    const board = await this.refreshStatus(force);
    console.log(ConsoleReport.table(board));
    const urls = ConsoleReport.issueUrls(board);
    if (urls.length > 0) console.log(`\nOpen a removal issue:\n${urls.join('\n')}`);
    return board;
  }
}
