/**
 * @module VoteWebhookServer: one node:http endpoint `POST <path>/<list id>` for every list's votes,
 * with secrets, signatures, per-IP limits and bans; `ingest` serves other frameworks.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BotlistsError } from '../errors.js';
import { TypedEmitter } from '../events/typed-emitter.js';
import { builtInLists } from '../registry/lists.generated.js';
import { resolveList } from '../registry/resolve-list.js';
import { trimSlashes, trimTrailingSlashes } from '../text/trim-slashes.js';
import type { BotlistRecord, ParsedWebhook, RequestLog, WebhookEvents } from '../types.js';
import { parseWebhook } from './classify-webhook.js';
import { createProxyTrust, limitKey, type ProxyTrust, resolveClientAddress } from './client-address.js';
import { IpGuard } from './ip-guard.js';
import { ReplayGuard } from './replay-guard.js';
import { type AuthKeys, type AuthResult, authenticate, type HeaderBag } from './webhook-auth.js';

const DEFAULT_WEBHOOK_PORT = 8080;
export const DEFAULT_WEBHOOK_PATH = '/botlists';
const DEFAULT_WEBHOOK_HOST = '0.0.0.0';
const MAX_BODY_BYTES = 512 * 1024;
/** Longer request targets get 414 before anything is parsed (a webhook URL is short). */
const MAX_URL_LENGTH = 2048;
/** Longer list ids are unknown without being looked up (the longest real id is about 30). */
const MAX_LIST_ID_LENGTH = 100;

export interface WebhookSecurityOptions {
  /** Per-list HMAC-SHA256 keys (list id or alias → key). */
  hmac?: Record<string, string>;
  /** Per-IP budget (default 30 requests per 60 000 ms). */
  rateLimit?: { max?: number; windowMs?: number };
  /** Consecutive authentication failures before an IP is banned (default 10; 0 disables). */
  banAfterFailures?: number;
  /** Ban length (default 900 000 ms). */
  banDurationMs?: number;
  /** Accept only these list ids (others get 403). */
  allowedLists?: string[];
  /**
   * Proxies whose `X-Forwarded-For` is believed: `true` for loopback and private networks, or a
   * list of addresses and CIDR ranges. The chain is walked right to left through them only.
   */
  trustProxy?: boolean | string[];
  /**
   * Accept deliveries proven only by the shared secret in a header (default true). They cannot be
   * told apart from a replay; false refuses them (401) so only signed deliveries count.
   */
  acceptSecretOnly?: boolean;
  /** false only for local testing: lists with no secret accept unsigned posts (default true). */
  requireSecret?: boolean;
  /** Body limit (default 512 KB). */
  maxBodyBytes?: number;
  /** Signed deliveries remembered for replay checks (default 200 000, about 30 MB); beyond it 503. */
  replayCapacity?: number;
}

export interface WebhookOptions {
  port?: number;
  host?: string;
  path?: string;
  /** One secret for every list, or a map list id (or alias) → secret. */
  secret?: string | Record<string, string>;
  security?: WebhookSecurityOptions;
  /** Registry used to resolve list ids (defaults to the built-in lists). */
  lists?: readonly BotlistRecord[];
  /** Clock for limits, bans and signature windows (tests inject one). */
  now?: () => number;
}

export interface IngestOptions {
  /** Request headers: when given, the transport auth is enforced and null is returned on failure. */
  headers?: HeaderBag;
  isTest?: boolean;
}

interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

const json = (status: number, body: object, headers?: Record<string, string>): Reply => {
  const reply: Reply = { status, body: JSON.stringify(body) };
  if (headers) reply.headers = headers;
  return reply;
};
const fail = (status: number, error: string, headers?: Record<string, string>) =>
  json(status, { ok: false, error }, headers);
const OK = json(200, { ok: true });

function toBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return Buffer.from(JSON.stringify(body ?? null), 'utf8');
}

export class VoteWebhookServer extends TypedEmitter<WebhookEvents> {
  readonly port: number;
  readonly host: string;
  readonly path: string;
  private readonly lists: readonly BotlistRecord[];
  private readonly secrets: Map<string, string>;
  private readonly defaultSecret: string | undefined;
  private readonly hmacKeys: Map<string, string>;
  private readonly allowed: Set<string> | null;
  private readonly proxies: ProxyTrust | null;
  private readonly requireSecret: boolean;
  private readonly acceptSecretOnly: boolean;
  private readonly replays: ReplayGuard;
  private readonly maxBodyBytes: number;
  private readonly guard: IpGuard;
  private readonly now: () => number;
  /** Route segments resolved so far (bounded: unknown ids sent by scanners must not grow it forever). */
  private readonly resolved = new Map<string, BotlistRecord | null>();
  private server: Server | null = null;
  private boundPort: number | null = null;

  constructor(options: WebhookOptions = {}) {
    super();
    const security = options.security ?? {};
    this.lists = options.lists ?? builtInLists;
    this.port = options.port ?? DEFAULT_WEBHOOK_PORT;
    this.host = options.host ?? DEFAULT_WEBHOOK_HOST;
    const path = trimSlashes(options.path ?? DEFAULT_WEBHOOK_PATH);
    this.path = path ? `/${path}` : '';
    this.now = options.now ?? Date.now;
    this.defaultSecret = typeof options.secret === 'string' && options.secret ? options.secret : undefined;
    this.secrets = this.byListId(typeof options.secret === 'object' ? options.secret : {});
    this.hmacKeys = this.byListId(security.hmac ?? {});
    this.allowed = security.allowedLists
      ? new Set(security.allowedLists.map((id) => this.listOf(id)?.id ?? id))
      : null;
    this.proxies = createProxyTrust(security.trustProxy ?? false);
    this.requireSecret = security.requireSecret ?? true;
    this.acceptSecretOnly = security.acceptSecretOnly ?? true;
    this.replays = new ReplayGuard(security.replayCapacity);
    this.maxBodyBytes = security.maxBodyBytes ?? MAX_BODY_BYTES;
    this.guard = new IpGuard({
      max: security.rateLimit?.max ?? 30,
      windowMs: security.rateLimit?.windowMs ?? 60_000,
      banAfterFailures: security.banAfterFailures ?? 10,
      banDurationMs: security.banDurationMs ?? 15 * 60_000,
      now: this.now,
    });
  }

  get isRunning(): boolean {
    return this.server !== null;
  }

  /** `http://host:port/path` of the running server (the configured one before start). */
  get address(): string {
    const host = this.host.includes(':') ? `[${this.host}]` : this.host;
    return `http://${host}:${this.boundPort ?? this.port}${this.path}`;
  }

  /** Starts listening; resolves with `address`. Throws when no secret is configured and `requireSecret` is on. */
  async start(port: number = this.port): Promise<string> {
    if (this.server) return this.address;
    if (this.requireSecret && !this.defaultSecret && this.secrets.size === 0 && this.hmacKeys.size === 0) {
      throw new BotlistsError(
        'webhook.secret is required (set security.requireSecret: false only for local testing)',
      );
    }
    const server = createServer((req, res) => this.handleNode(req, res));
    // Slow senders cannot hold sockets open: a delivery is small.
    server.requestTimeout = 15_000;
    server.headersTimeout = 10_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, this.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.boundPort = (server.address() as AddressInfo).port;
    return this.address;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    this.boundPort = null;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections?.();
    });
  }

  /**
   * Feeds one delivery received by your own HTTP framework. Pass the raw body (string or bytes) for
   * signatures to verify. With `opts.headers` the secret/signature is enforced (null on failure);
   * without, the body is only parsed. Emits the same events as the server.
   */
  ingest(listQuery: string, body: unknown, opts: IngestOptions = {}): ParsedWebhook | null {
    const list = this.listOf(listQuery);
    if (!list) {
      this.emitError(new BotlistsError(`unknown list "${listQuery}"`, { listId: listQuery }));
      return null;
    }
    let payload = body;
    if (opts.headers) {
      const raw = toBytes(body);
      const auth = authenticate(list, opts.headers, raw, this.keysFor(list), this.now());
      if (!auth.ok) {
        this.emitError(
          new BotlistsError(`webhook from ${list.id} refused: ${auth.reason}`, {
            listId: list.id,
            status: 401,
          }),
        );
        return null;
      }
      if (this.replayOf(list, auth, raw) !== 'first') return null;
      payload = auth.jwtClaims ?? body;
    }
    if (typeof payload === 'string' || payload instanceof Uint8Array) {
      try {
        payload = JSON.parse(Buffer.from(toBytes(payload)).toString('utf8'));
      } catch {
        this.emitError(
          new BotlistsError(`webhook from ${list.id}: invalid JSON`, { listId: list.id, status: 400 }),
        );
        return null;
      }
    }
    return this.dispatch(list, payload, opts.isTest ?? false);
  }

  private byListId(map: Record<string, string>): Map<string, string> {
    const out = new Map<string, string>();
    for (const [key, value] of Object.entries(map)) if (value) out.set(this.listOf(key)?.id ?? key, value);
    return out;
  }

  private listOf(query: string): BotlistRecord | null {
    if (query.length > MAX_LIST_ID_LENGTH) return null;
    const known = this.resolved.get(query);
    if (known !== undefined) return known;
    let found: BotlistRecord | null;
    try {
      found = resolveList(query, this.lists);
    } catch {
      found = null;
    }
    if (this.resolved.size >= 1024) this.resolved.clear();
    this.resolved.set(query, found);
    return found;
  }

  private keysFor(list: BotlistRecord): AuthKeys {
    return {
      secret: this.secrets.get(list.id) ?? this.defaultSecret,
      hmacKey: this.hmacKeys.get(list.id),
      requireSecret: this.requireSecret,
      acceptSecretOnly: this.acceptSecretOnly,
    };
  }

  /** `first` for a delivery never seen (or one with no proof to recognise it by). */
  private replayOf(list: BotlistRecord, auth: AuthResult & { ok: true }, raw: Uint8Array) {
    return auth.proof ? this.replays.check(list.id, auth.proof, raw, this.now()) : 'first';
  }

  private emitError(error: Error): void {
    // An EventEmitter throws on an unhandled 'error': a bad delivery must never crash the bot.
    if (this.listenerCount('error') > 0) this.emit('error', error);
  }

  private dispatch(list: BotlistRecord, body: unknown, isTest: boolean): ParsedWebhook | null {
    let parsed: ParsedWebhook;
    try {
      parsed = parseWebhook(list, body, isTest, this.now());
    } catch (error) {
      this.emitError(error as Error);
      return null;
    }
    this.emit('raw', parsed);
    if (parsed.vote) this.emit(parsed.kind === 'test' ? 'test' : 'vote', parsed.vote);
    else if (parsed.comment) this.emit(parsed.comment.kind, parsed.comment);
    return parsed;
  }

  private handleNode(req: IncomingMessage, res: ServerResponse): void {
    const started = this.now();
    const forwarded = req.headers['x-forwarded-for'];
    const chain = Array.isArray(forwarded) ? forwarded.join(',') : forwarded;
    const ip = resolveClientAddress(req.socket.remoteAddress, chain, this.proxies);
    const client = limitKey(ip);
    const url = req.url ?? '/';
    const pathname = url.split('?')[0] ?? '/';
    let listId: string | null = null;
    const finish = (reply: Reply) => {
      const headers: Record<string, string | number> = {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(reply.body),
        ...reply.headers,
      };
      res.writeHead(reply.status, headers);
      res.end(reply.body);
      if (this.listenerCount('request') > 0) {
        const log: RequestLog = {
          method: req.method ?? '',
          path: pathname,
          ip,
          listId,
          status: reply.status,
          durationMs: this.now() - started,
        };
        this.emit('request', log);
      }
    };
    const verdict = this.guard.admit(client);
    if (!verdict.allowed) {
      req.resume();
      finish(
        fail(verdict.status, verdict.status === 403 ? 'banned' : 'rate limited', {
          'retry-after': String(verdict.retryAfterSeconds),
        }),
      );
      return;
    }
    if (url.length > MAX_URL_LENGTH) {
      req.resume();
      finish(fail(414, 'URI too long'));
      return;
    }
    const route = this.route(pathname, url);
    if (route === null) {
      req.resume();
      finish(fail(404, 'not found'));
      return;
    }
    if (req.method !== 'POST') {
      req.resume();
      finish(fail(405, 'method not allowed', { allow: 'POST' }));
      return;
    }
    const list = route ? this.listOf(route) : null;
    if (!list) {
      req.resume();
      finish(fail(404, route ? `unknown list "${route}"` : 'list id missing: POST <path>/<list id>'));
      return;
    }
    listId = list.id;
    if (this.allowed && !this.allowed.has(list.id)) {
      req.resume();
      finish(fail(403, 'list not allowed'));
      return;
    }
    // 413, then drop the connection once the answer is flushed: the rest of the upload is never read.
    const refuseBody = () => {
      res.setHeader('connection', 'close');
      res.once('finish', () => req.socket.destroy());
      finish(fail(413, 'body too large'));
    };
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBodyBytes) {
      refuseBody();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (chunk: Buffer) => {
      if (tooLarge) return;
      size += chunk.length;
      if (size > this.maxBodyBytes) {
        tooLarge = true;
        chunks.length = 0;
        refuseBody();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (tooLarge) return;
      const raw = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      finish(this.accept(list, req.headers, raw, client));
    });
    req.on('error', () => {
      if (!res.headersSent) finish(fail(400, 'request aborted'));
    });
  }

  /** Authenticates, parses and dispatches one fully read delivery. */
  private accept(list: BotlistRecord, headers: HeaderBag, raw: Buffer, client: string): Reply {
    try {
      const auth = authenticate(list, headers, raw, this.keysFor(list), this.now());
      if (!auth.ok) {
        this.guard.fail(client);
        this.emitError(
          new BotlistsError(`webhook from ${list.id} refused: ${auth.reason}`, {
            listId: list.id,
            status: 401,
          }),
        );
        return fail(401, auth.reason);
      }
      this.guard.succeed(client);
      const replay = this.replayOf(list, auth, raw);
      // A list that redelivers because our answer was lost gets its 200; only the event is not repeated.
      if (replay === 'replay') return json(200, { ok: true, duplicate: true });
      if (replay === 'full') return fail(503, 'busy', { 'retry-after': '60' });
      let body: unknown = auth.jwtClaims;
      if (body === null) {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch {
          this.emitError(
            new BotlistsError(`webhook from ${list.id}: invalid JSON`, { listId: list.id, status: 400 }),
          );
          return fail(400, 'invalid JSON');
        }
      }
      const parsed = this.dispatch(list, body, false);
      return parsed ? OK : fail(400, 'unrecognised payload');
    } catch (error) {
      // A throwing event listener: answer 500 so the list redelivers later (its documented retry).
      this.emitError(error as Error);
      return fail(500, 'handler failed');
    }
  }

  /** List id of `<path>/<id>` (or `?list=` / `?source=` on `<path>`); '' for the bare path; null outside it. */
  private route(pathname: string, url: string): string | null {
    if (pathname !== this.path && !pathname.startsWith(`${this.path}/`)) return null;
    let rest: string;
    try {
      rest = trimTrailingSlashes(decodeURIComponent(pathname.slice(this.path.length + 1)));
    } catch {
      return null;
    }
    if (rest) return rest.includes('/') ? null : rest;
    const query = new URLSearchParams(url.split('?')[1] ?? '');
    return query.get('list') ?? query.get('source') ?? '';
  }
}
