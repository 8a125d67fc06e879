/**
 * @module StatusChecker: probes every list's website (HEAD, GET when HEAD is refused), 8 at a time, board cached 5 minutes.
 */

import { builtInLists } from '../registry/lists.generated.js';
import { trimTrailingSlashes } from '../text/trim-slashes.js';
import type {
  BotlistRecord,
  FetchLike,
  ListStatus,
  StatusBoard,
  StatusBoardInput,
  StatusEntry,
} from '../types.js';
import { classifyAnswer, classifyError, type ProbeVerdict } from './classify-probe.js';
import { boardTime } from './report-time.js';

const STATUS_CONCURRENCY = 8;
const STATUS_TIMEOUT_MS = 8000;
const STATUS_CACHE_MS = 5 * 60_000;
/** Bytes of a page read to spot a parking page; the marker text sits near the top. */
const PARKED_SNIFF_BYTES = 64 * 1024;

export interface StatusCheckerOptions {
  fetch?: FetchLike;
  lists?: readonly BotlistRecord[];
  concurrency?: number;
  timeoutMs?: number;
  cacheMs?: number;
  /** Probe `<baseUrl>/<list id>` instead of each website (offline tests, mirrors). */
  baseUrl?: string;
  now?: () => number;
}

async function readStart(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (size < PARKED_SNIFF_BYTES) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
  }
  await reader.cancel().catch(() => {});
  return Buffer.concat(chunks).toString('utf8');
}

const isHtml = (res: Response) => /html/i.test(res.headers.get('content-type') ?? '');
/** HEAD refused: 405 Method Not Allowed, 501 Not Implemented, and some CDNs' 403/404 for HEAD only. */
const HEAD_REFUSED = new Set([403, 404, 405, 501]);

export class StatusChecker {
  private readonly options: Required<Omit<StatusCheckerOptions, 'fetch' | 'baseUrl'>> &
    Pick<StatusCheckerOptions, 'fetch' | 'baseUrl'>;
  private cached: StatusBoard | null = null;
  private running: Promise<StatusBoard> | null = null;

  constructor(options: StatusCheckerOptions = {}) {
    this.options = {
      lists: options.lists ?? builtInLists,
      concurrency: options.concurrency ?? STATUS_CONCURRENCY,
      timeoutMs: options.timeoutMs ?? STATUS_TIMEOUT_MS,
      cacheMs: options.cacheMs ?? STATUS_CACHE_MS,
      now: options.now ?? Date.now,
      fetch: options.fetch,
      baseUrl: options.baseUrl,
    };
  }

  /** The last board probed, or null. */
  get lastBoard(): StatusBoard | null {
    return this.cached;
  }

  /**
   * The cached board when younger than `cacheMs`, else a fresh probe of every list. A call made
   * while a probe runs (forced or not) shares it: two probes never run at once, so the
   * concurrency limit holds across callers.
   */
  refresh(force = false): Promise<StatusBoard> {
    const { cacheMs, now } = this.options;
    if (!force && this.cached && now() - this.cached.checkedAt < cacheMs) return Promise.resolve(this.cached);
    if (!this.running) {
      this.running = this.probeAll().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async probeAll(): Promise<StatusBoard> {
    const { now } = this.options;
    const lists = this.options.lists;
    const entries = new Array<StatusEntry>(lists.length);
    let next = 0;
    const worker = async () => {
      while (next < lists.length) {
        const index = next++;
        entries[index] = await this.probe(lists[index]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.options.concurrency, lists.length) }, worker));
    const summary: Record<ListStatus, number> = { live: 0, deprecated: 0, shutdown: 0, unknown: 0 };
    for (const entry of entries) summary[entry.state]++;
    this.cached = { summary, entries, checkedAt: now() };
    return this.cached;
  }

  /** Probes one list. Never throws. */
  async probe(list: BotlistRecord): Promise<StatusEntry> {
    const { now } = this.options;
    const url = this.options.baseUrl
      ? `${trimTrailingSlashes(this.options.baseUrl)}/${list.id}`
      : list.website;
    const started = now();
    let httpStatus: number | null = null;
    let verdict: ProbeVerdict;
    try {
      let res = await this.request(url, 'HEAD');
      let html: string | null = null;
      if (HEAD_REFUSED.has(res.status) || (res.ok && isHtml(res))) {
        // GET: HEAD was refused, or the page must be read to tell a live site from a parking page.
        await res.body?.cancel().catch(() => {});
        res = await this.request(url, 'GET');
        html = isHtml(res) ? await readStart(res) : null;
      }
      await res.body?.cancel().catch(() => {});
      httpStatus = res.status;
      verdict = classifyAnswer(res.status, res.url || url, html);
    } catch (error) {
      verdict = classifyError(error);
    }
    // The registry's own deprecation (superseded, announced end of life) wins over a live answer.
    if (list.status === 'deprecated' && verdict.state === 'live')
      verdict = { state: 'deprecated', detail: 'deprecated in the registry' };
    return {
      listId: list.id,
      listName: list.name,
      website: list.website,
      state: verdict.state,
      httpStatus,
      latencyMs: httpStatus === null ? null : now() - started,
      lastChecked: now(),
      detail: verdict.detail,
    };
  }

  private async request(url: string, method: 'HEAD' | 'GET'): Promise<Response> {
    const fetchImpl =
      this.options.fetch ?? ((input: string, init?: RequestInit) => globalThis.fetch(input, init));
    return fetchImpl(url, {
      method,
      redirect: 'follow',
      signal: AbortSignal.timeout(this.options.timeoutMs),
    });
  }

  /** The board as a Markdown table (for a README or a status issue). */
  static toMarkdown(board: StatusBoardInput): string {
    const { live, deprecated, shutdown, unknown } = board.summary;
    const cell = (text: string) => text.replaceAll('|', '\\|');
    const rows = board.entries.map(
      (e) =>
        `| ${cell(e.listName)} | \`${e.listId}\` | ${e.state} | ${e.httpStatus ?? '–'} | ${e.latencyMs ?? '–'} | ${cell(e.detail ?? '')} |`,
    );
    const checked = boardTime(board);
    return [
      `**${live} live, ${deprecated} deprecated, ${shutdown} shutdown, ${unknown} unknown**${checked ? ` (checked ${checked})` : ''}`,
      '',
      '| List | id | State | HTTP | Latency (ms) | Detail |',
      '|---|---|---|---|---|---|',
      ...rows,
    ].join('\n');
  }
}
