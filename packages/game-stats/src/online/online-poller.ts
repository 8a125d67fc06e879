/**
 * @module Polls the online source (RCON `list uuids`, or a Query full stat) on an interval,
 * reconnecting with exponential backoff, and feeds Presence and the name book.
 */
import type { Logger } from 'pino';
import type { NameBook } from '../index/name-book.js';
import { type OnlineList, parseListOutput } from './list-output.js';
import type { Presence } from './presence.js';
import { queryFullStat } from './query-client.js';
import { RconClient } from './rcon-client.js';

export type OnlineSourceSettings =
  | { kind: 'none' }
  | { kind: 'rcon'; host: string; port: number; password: string; intervalMs: number; timeoutMs: number }
  | { kind: 'query'; host: string; port: number; intervalMs: number; timeoutMs: number };

/** Longest wait between attempts while the source is down. */
const maxBackoffMs = 60_000;

interface OnlinePollerOptions {
  source: OnlineSourceSettings;
  presence: Presence;
  names: NameBook;
  logger?: Logger;
  /** Called after each poll that changed names or who is online. */
  onChange?: () => void;
  now?: () => number;
}

export class OnlinePoller {
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  private stopped = false;
  private rcon: RconClient | undefined;
  /** Game version as reported by Query (RCON does not tell). */
  gameVersion: string | null = null;

  constructor(private readonly options: OnlinePollerOptions) {}

  /** Polls once now, then on the interval. */
  async start(): Promise<void> {
    if (this.options.source.kind === 'none') return;
    await this.poll();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.rcon?.close();
  }

  private async poll(): Promise<void> {
    const source = this.options.source;
    if (source.kind === 'none' || this.stopped) return;
    try {
      const list = source.kind === 'rcon' ? await this.pollRcon(source) : await this.pollQuery(source);
      this.apply(list);
      if (this.failures > 0)
        this.options.logger?.info({ source: source.kind }, 'online source reachable again');
      this.failures = 0;
    } catch (error) {
      const message = (error as Error).message;
      if (this.failures === 0)
        this.options.logger?.warn({ source: source.kind, reason: message }, 'online source unreachable');
      this.failures++;
      this.rcon?.close();
      const before = this.options.presence.generation;
      this.options.presence.fail(message);
      if (before !== this.options.presence.generation) this.options.onChange?.();
    }
    if (this.stopped) return;
    const delay = Math.min(
      source.intervalMs * 2 ** Math.min(this.failures, 10),
      Math.max(maxBackoffMs, source.intervalMs),
    );
    this.timer = setTimeout(() => void this.poll(), delay);
    this.timer.unref();
  }

  private async pollRcon(source: Extract<OnlineSourceSettings, { kind: 'rcon' }>): Promise<OnlineList> {
    this.rcon ??= new RconClient(source);
    if (!this.rcon.connected) await this.rcon.connect();
    let list = parseListOutput(await this.rcon.command('list uuids'));
    // Servers older than 1.13 do not know `list uuids`.
    list ??= parseListOutput(await this.rcon.command('list'));
    if (!list) throw new Error('unexpected answer to `list`');
    return list;
  }

  private async pollQuery(source: Extract<OnlineSourceSettings, { kind: 'query' }>): Promise<OnlineList> {
    const result = await queryFullStat(source);
    this.gameVersion = result.version;
    return result;
  }

  private apply(list: OnlineList) {
    const now = this.options.now?.() ?? Date.now();
    const uuids: string[] = [];
    let namesChanged = false;
    for (const player of list.players) {
      if (player.uuid) {
        namesChanged = this.options.names.claim(player.uuid, player.name, now) || namesChanged;
        uuids.push(player.uuid);
      } else {
        const uuid = this.options.names.uuidOf(player.name);
        if (uuid) uuids.push(uuid);
      }
    }
    const before = this.options.presence.generation;
    this.options.presence.update(uuids, list.max, now);
    if (namesChanged || before !== this.options.presence.generation) this.options.onChange?.();
  }
}
