/**
 * @module VoteAnnouncer: posts each vote to Discord webhooks and external HTTPS endpoints, paced per target,
 * with a bounded drop-oldest queue, one wait on a short 429, and dead targets dropped.
 */
import { BotlistsError } from '../errors.js';
import { TypedEmitter } from '../events/typed-emitter.js';
import { MAX_RETRY_AFTER_SECONDS, sleep, USER_AGENT } from '../http/http-client.js';
import { parseRetryAfter } from '../http/retry-after.js';
import { trimTrailingSlashes } from '../text/trim-slashes.js';
import type { FetchLike, UniversalVote, UniversalVoteInput } from '../types.js';
import { completeVote } from './complete-vote.js';
import {
  type AnnounceFormat,
  type AnnounceLink,
  buildDiscordMessage,
  DEFAULT_TEMPLATE,
  type MessageContext,
} from './discord-payloads.js';
import { assertLinkButtons } from './link-buttons.js';
import { assertDiscordWebhook, assertExternalTarget, redactTarget, withComponentsUrl } from './targets.js';
import { assertWebhookUsername, webhookUsernameProblem } from './webhook-username.js';

const DEFAULT_MIN_INTERVAL_MS = 1000;
const DEFAULT_MAX_QUEUE_SIZE = 500;
const ANNOUNCE_TIMEOUT_MS = 8000;
const DISCORD_API_BASE = 'https://discord.com/api/v10';

/** The bot as `GET /users/@me` describes it; `username` is its name when Discord takes it as a webhook name. */
interface BotIdentity {
  name: string | undefined;
  avatar: string | undefined;
  username: string | undefined;
}
const NO_IDENTITY: BotIdentity = { name: undefined, avatar: undefined, username: undefined };

export type AnnouncePayload = Record<string, unknown>;

export interface VoteAnnouncerOptions {
  /** Master switch when wired inside `Botlists` (default false). A standalone announcer always runs. */
  enabled?: boolean;
  /** `text`, `embed` (default) or `embed-v2` (components v2). */
  format?: AnnounceFormat;
  /** Discord channel webhook URLs (discord.com, discordapp.com, canary., ptb.). */
  webhooks?: string[];
  /** HTTPS endpoints receiving `{source, event, list, vote}`. */
  external?: string[];
  /** Webhook display name; Discord refuses names containing "discord" or "clyde", so they throw here. */
  username?: string;
  avatarUrl?: string;
  /** Read-only use: fetches the bot's name and avatar from `GET /users/@me`. */
  botToken?: string;
  /** Name used for `{bot}` when no botToken lookup gives one. */
  botName?: string;
  template?: string;
  color?: number;
  /** Up to 5 link buttons for `embed-v2`. */
  links?: AnnounceLink[];
  /** Last word on each payload; return null to skip that target for this vote. */
  customize?: (vote: UniversalVote, payload: AnnouncePayload) => AnnouncePayload | null | undefined;
  announceTestVotes?: boolean;
  minIntervalMs?: number;
  maxQueueSize?: number;
  fetch?: FetchLike;
  /** Discord API base for the identity lookup (default https://discord.com/api/v10). */
  discordApiBase?: string;
  timeoutMs?: number;
}

interface Target {
  url: string;
  kind: 'discord' | 'external';
  queue: UniversalVote[];
  draining: boolean;
  lastSentAt: number;
  dead: boolean;
}

/** `delivered` event payload. */
export interface DeliveryEvent {
  target: string;
  status: number;
  vote: UniversalVote;
}

/** Events of a VoteAnnouncer. */
export interface AnnouncerEvents {
  delivered: DeliveryEvent;
  dropped: { target: string; vote: UniversalVote };
  error: Error;
}

export class VoteAnnouncer extends TypedEmitter<AnnouncerEvents> {
  private readonly options: VoteAnnouncerOptions;
  private readonly targets: Target[];
  private identity: Promise<BotIdentity> | null = null;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(options: VoteAnnouncerOptions = {}) {
    super();
    assertLinkButtons(options.links ?? []);
    if (options.username !== undefined) assertWebhookUsername(options.username);
    if (options.template !== undefined && !options.template.trim())
      throw new BotlistsError('announcer template is blank: Discord refuses an empty message');
    this.options = options;
    const make = (url: string, kind: Target['kind']): Target => ({
      url,
      kind,
      queue: [],
      draining: false,
      lastSentAt: 0,
      dead: false,
    });
    this.targets = [
      ...(options.webhooks ?? []).map((url) => make(assertDiscordWebhook(url), 'discord')),
      ...(options.external ?? []).map((url) => make(assertExternalTarget(url), 'external')),
    ];
  }

  /** Live targets (dropped ones excluded), tokens redacted. */
  get activeTargets(): string[] {
    return this.targets.filter((t) => !t.dead).map((t) => redactTarget(t.url));
  }

  /** Queues the vote for every live target. Test votes are ignored unless `announceTestVotes`. */
  announce(input: UniversalVoteInput): void {
    if (input.isTest && !this.options.announceTestVotes) return;
    const vote = completeVote(input, Date.now());
    const max = Math.max(1, this.options.maxQueueSize ?? DEFAULT_MAX_QUEUE_SIZE);
    for (const target of this.targets) {
      if (target.dead) continue;
      target.queue.push(vote);
      if (target.queue.length > max) {
        const dropped = target.queue.shift()!;
        this.emit('dropped', { target: redactTarget(target.url), vote: dropped });
      }
      void this.drain(target);
    }
  }

  /** Resolves once every queue is empty and no send is in flight (graceful shutdown, tests). */
  idle(): Promise<void> {
    if (this.targets.every((t) => !t.draining)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private emitError(error: Error): void {
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  private get fetchImpl(): FetchLike {
    return this.options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  private async drain(target: Target): Promise<void> {
    if (target.draining) return;
    target.draining = true;
    try {
      const spacing = this.options.minIntervalMs ?? DEFAULT_MIN_INTERVAL_MS;
      while (target.queue.length > 0 && !target.dead) {
        const wait = target.lastSentAt + spacing - Date.now();
        if (wait > 0) await sleep(wait);
        const vote = target.queue.shift()!;
        await this.deliver(target, vote);
        target.lastSentAt = Date.now();
      }
      if (target.dead) target.queue.length = 0;
    } finally {
      target.draining = false;
      if (this.targets.every((t) => !t.draining)) for (const resolve of this.idleWaiters.splice(0)) resolve();
    }
  }

  private async payloadFor(target: Target, vote: UniversalVote): Promise<AnnouncePayload> {
    if (target.kind === 'external') {
      return {
        source: 'botlists',
        event: vote.isTest ? 'test' : 'vote',
        list: { id: vote.listId, name: vote.listName },
        vote,
      };
    }
    const who = await this.lookupIdentity();
    const ctx: MessageContext = {
      botName: this.options.botName ?? who.name ?? vote.botId ?? 'the bot',
      botId: vote.botId ?? '',
      format: this.options.format ?? 'embed',
      template: this.options.template ?? DEFAULT_TEMPLATE,
      color: this.options.color,
      links: this.options.links ?? [],
      username: this.options.username ?? who.username,
      avatarUrl: this.options.avatarUrl ?? who.avatar,
    };
    return buildDiscordMessage(vote, ctx);
  }

  private async deliver(target: Target, vote: UniversalVote): Promise<void> {
    let payload: AnnouncePayload | null | undefined = await this.payloadFor(target, vote);
    if (this.options.customize) {
      try {
        payload = this.options.customize(vote, payload);
      } catch (error) {
        this.emitError(error as Error);
        return;
      }
      if (!payload) return;
    }
    const url =
      target.kind === 'discord' && (this.options.format ?? 'embed') === 'embed-v2'
        ? withComponentsUrl(target.url)
        : target.url;
    const body = JSON.stringify(payload);
    for (let attempt = 0; attempt < 2; attempt++) {
      let res: Response;
      let text: string;
      try {
        res = await this.fetchImpl(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': USER_AGENT },
          body,
          signal: AbortSignal.timeout(this.options.timeoutMs ?? ANNOUNCE_TIMEOUT_MS),
        });
        text = await res.text();
      } catch (error) {
        this.emitError(
          new BotlistsError(`announce to ${redactTarget(target.url)} failed: ${(error as Error).message}`, {
            cause: error,
          }),
        );
        return;
      }
      if (res.ok) {
        this.emit('delivered', {
          target: redactTarget(target.url),
          status: res.status,
          vote,
        } satisfies DeliveryEvent);
        return;
      }
      const retryAfter = parseRetryAfter(res.headers, text);
      if (
        res.status === 429 &&
        attempt === 0 &&
        retryAfter !== null &&
        retryAfter <= MAX_RETRY_AFTER_SECONDS
      ) {
        await sleep(retryAfter * 1000);
        continue;
      }
      if (res.status === 401 || res.status === 404) {
        // A deleted or revoked webhook: retrying only earns a Cloudflare ban.
        target.dead = true;
        this.emitError(
          new BotlistsError(`target ${redactTarget(target.url)} answered ${res.status}: dropped`, {
            status: res.status,
          }),
        );
        return;
      }
      this.emitError(
        new BotlistsError(`announce to ${redactTarget(target.url)}: HTTP ${res.status}`, {
          status: res.status,
          retryAfter,
          body: text.slice(0, 200),
        }),
      );
      return;
    }
  }

  /**
   * Bot name and avatar from the token, once; failures fall back to the webhook's own identity.
   * A bot name Discord would refuse as a webhook name is not sent: an `error` event says why.
   */
  private lookupIdentity(): Promise<BotIdentity> {
    const token = this.options.botToken;
    if (!token) return Promise.resolve(NO_IDENTITY);
    this.identity ??= (async () => {
      try {
        const base = trimTrailingSlashes(this.options.discordApiBase ?? DISCORD_API_BASE);
        const res = await this.fetchImpl(`${base}/users/@me`, {
          headers: { authorization: `Bot ${token.replace(/^Bot\s+/i, '')}`, 'user-agent': USER_AGENT },
          signal: AbortSignal.timeout(this.options.timeoutMs ?? ANNOUNCE_TIMEOUT_MS),
        });
        if (!res.ok) throw new BotlistsError(`identity lookup: HTTP ${res.status}`, { status: res.status });
        const me = (await res.json()) as {
          id?: string;
          username?: string;
          global_name?: string;
          avatar?: string | null;
        };
        const avatar =
          me.id && me.avatar ? `https://cdn.discordapp.com/avatars/${me.id}/${me.avatar}.png` : undefined;
        const name = me.global_name ?? me.username;
        const problem = name === undefined ? null : webhookUsernameProblem(name);
        if (problem)
          this.emitError(
            new BotlistsError(
              `bot name "${name}" ${problem}: messages keep the webhook's own name (set announcer.username)`,
            ),
          );
        return { name, avatar, username: problem ? undefined : name };
      } catch (error) {
        this.emitError(error as Error);
        return NO_IDENTITY;
      }
    })();
    return this.identity;
  }
}
