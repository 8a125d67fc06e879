import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Botlists, type BotlistsOptions, lists, type StatusBoard } from '../src/index.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** Probes go to `<STATUS_BASE>/<list id>` (the `status.baseUrl` option); the fetch below answers them. */
const STATUS_BASE = 'http://status.test';
const dnsFailure = () => Object.assign(new TypeError('fetch failed'), { cause: { code: 'ENOTFOUND' } });

/**
 * The lists' websites and APIs are internet services: an injected fetch stands in for them. It
 * records every request, answers posts with `{}` and probes with 200, except the lists in `dead`
 * (their domain no longer resolves) and while held (probes wait for the release).
 */
function fakeInternet() {
  const state = {
    requests: [] as string[],
    dead: new Set<string>(),
    hold: null as Promise<void> | null,
    /** Holds every probe until the returned release is called. */
    holdProbes: (): (() => void) => {
      let release = () => {};
      state.hold = new Promise<void>((resolve) => {
        release = resolve;
      });
      return () => {
        state.hold = null;
        release();
      };
    },
    probes: () => state.requests.filter((r) => r.startsWith(`HEAD ${STATUS_BASE}/`)),
    posts: () => state.requests.filter((r) => r.startsWith('POST ') || r.startsWith('PATCH ')),
    fetch: async (url: string, init?: RequestInit): Promise<Response> => {
      state.requests.push(`${init?.method ?? 'GET'} ${url}`);
      if (!url.startsWith(`${STATUS_BASE}/`)) return new Response('{}');
      if (state.hold) await state.hold;
      if (state.dead.has(url.slice(STATUS_BASE.length + 1))) throw dnsFailure();
      return new Response(null, { status: 200 });
    },
  };
  return state;
}

function client(net: ReturnType<typeof fakeInternet>, options: BotlistsOptions = {}) {
  const bot = new Botlists({
    botId: '1',
    env: {},
    postSpacingMs: 0,
    fetchOptions: { fetch: net.fetch, retries: 0 },
    webhook: { host: '127.0.0.1', port: 0, secret: 's' },
    ...options,
    status: { baseUrl: STATUS_BASE, ...options.status },
  });
  const boards: StatusBoard[] = [];
  const errors: Error[] = [];
  bot.on('status', (board) => boards.push(board));
  bot.on('error', (error: Error) => errors.push(error));
  return { bot, boards, errors };
}

const STATS = { serverCount: 5 };
/** Fakes the clock too (the board's age is measured with Date.now); set before constructing a client. */
const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

afterEach(() => {
  vi.useRealTimers();
});

describe('hourly status probes', () => {
  it('probe every list once an hour while auto-posting, first one hour after the start, and stop with stopAutoPost', async () => {
    fakeClock();
    const net = fakeInternet();
    const { bot, boards, errors } = client(net);
    bot.startAutoPost(24 * HOUR, STATS);
    expect(bot.isCheckingStatus).toBe(true);
    await vi.advanceTimersByTimeAsync(HOUR - 1);
    // startupStatusCheck is off: nothing is probed before the first hour.
    expect(net.probes()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(net.probes()).toHaveLength(lists.length);
    expect(net.probes()).toContain(`HEAD ${STATUS_BASE}/top.gg`);
    expect(boards).toHaveLength(1);
    expect(boards[0]!.summary.live).toBe(lists.length);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(net.probes()).toHaveLength(2 * lists.length);
    expect(boards).toHaveLength(2);
    // Calling startAutoPost again (a reconnect's 'ready') neither restarts nor doubles the hourly clock.
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(boards).toHaveLength(3);
    bot.stopAutoPost();
    expect(bot.isCheckingStatus).toBe(false);
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(boards).toHaveLength(3);
    expect(net.probes()).toHaveLength(3 * lists.length);
    expect(errors).toEqual([]);
  });

  it('run while the webhook server runs, until neither mode does', async () => {
    fakeClock();
    const net = fakeInternet();
    const { bot, boards } = client(net);
    const address = await bot.startWebhooks();
    try {
      expect(address).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/botlists$/);
      bot.startAutoPost(24 * HOUR, STATS);
      await vi.advanceTimersByTimeAsync(HOUR);
      expect(boards).toHaveLength(1);
      bot.stopAutoPost();
      expect(bot.isCheckingStatus).toBe(true);
      await vi.advanceTimersByTimeAsync(HOUR);
      expect(boards).toHaveLength(2);
    } finally {
      await bot.stopWebhooks();
    }
    expect(bot.isCheckingStatus).toBe(false);
    await vi.advanceTimersByTimeAsync(3 * HOUR);
    expect(boards).toHaveLength(2);
  });

  it('follow status.intervalMs, raised to the 5-minute minimum', async () => {
    fakeClock();
    const net = fakeInternet();
    const every10 = client(net, { status: { intervalMs: 10 * MINUTE } });
    every10.bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(30 * MINUTE);
    expect(every10.boards).toHaveLength(3);
    every10.bot.stopAutoPost();
    const tooOften = client(net, { status: { intervalMs: 1000 } });
    tooOften.bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(tooOften.boards).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(tooOften.boards).toHaveLength(1);
    tooOften.bot.stopAutoPost();
  });

  it('never probe with disableStatusCheck, in any mode', async () => {
    fakeClock();
    const net = fakeInternet();
    const { bot, boards } = client(net, {
      tokens: { 'top.gg': 't' },
      disableStatusCheck: true,
      startupStatusCheck: true,
    });
    await bot.startWebhooks();
    try {
      bot.startAutoPost(HOUR, STATS);
      expect(bot.isCheckingStatus).toBe(false);
      await vi.advanceTimersByTimeAsync(5 * HOUR);
      expect(net.posts().length).toBeGreaterThanOrEqual(1);
      expect(net.probes()).toEqual([]);
      expect(boards).toEqual([]);
      bot.stopAutoPost();
    } finally {
      await bot.stopWebhooks();
    }
  });

  it('never overlap: a slow probe delays the next one, and refreshStatus during it shares it', async () => {
    fakeClock();
    const net = fakeInternet();
    const release = net.holdProbes();
    const { bot, boards } = client(net, { status: { intervalMs: 5 * MINUTE } });
    bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(5 * MINUTE);
    // The first 8 probes hang (8 at a time); hours pass without a second probe starting, even
    // when auto-post is restarted meanwhile.
    expect(net.probes()).toHaveLength(8);
    bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(net.probes()).toHaveLength(8);
    const manual = bot.refreshStatus(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(net.probes()).toHaveLength(8);
    release();
    const board = await manual;
    await vi.advanceTimersByTimeAsync(0);
    expect(net.probes()).toHaveLength(lists.length);
    expect(boards).toEqual([board, board]);
    // The next probe is one interval after the slow one finished.
    await vi.advanceTimersByTimeAsync(5 * MINUTE - 1);
    expect(net.probes()).toHaveLength(lists.length);
    await vi.advanceTimersByTimeAsync(1);
    expect(net.probes()).toHaveLength(2 * lists.length);
    bot.stopAutoPost();
  });

  it('a probe stopped mid-flight arms nothing afterwards', async () => {
    fakeClock();
    const net = fakeInternet();
    const release = net.holdProbes();
    const { bot, boards } = client(net);
    bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(HOUR);
    bot.stopAutoPost();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(boards).toHaveLength(1);
    expect(bot.isCheckingStatus).toBe(false);
    await vi.advanceTimersByTimeAsync(5 * HOUR);
    expect(boards).toHaveLength(1);
  });

  it('route a failing probe to `error` only when listened to, and keep the schedule', async () => {
    fakeClock();
    const net = fakeInternet();
    const { bot, boards, errors } = client(net);
    let throwing = true;
    bot.on('status', () => {
      if (throwing) throw new Error('status listener failed');
    });
    bot.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(errors.map((e) => e.message)).toEqual(['status listener failed']);
    throwing = false;
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(boards).toHaveLength(2);
    expect(errors).toHaveLength(1);
    bot.stopAutoPost();
    // No `error` listener: the failure is dropped, never an unhandled rejection (vitest fails the run on one).
    const quiet = new Botlists({
      botId: '1',
      env: {},
      fetchOptions: { fetch: net.fetch },
      status: { baseUrl: STATUS_BASE },
    });
    quiet.on('status', () => {
      throw new Error('nobody hears this');
    });
    quiet.startAutoPost(24 * HOUR, STATS);
    await vi.advanceTimersByTimeAsync(2 * HOUR);
    expect(quiet.isCheckingStatus).toBe(true);
    quiet.stopAutoPost();
  });

  it('a list the hourly probe finds shut down is skipped by the next post', async () => {
    fakeClock();
    const net = fakeInternet();
    const { bot, boards } = client(net, { tokens: { 'top.gg': 't', 'yabl.xyz': 'y' } });
    const reports: { posted: { listId: string }[]; skipped: { listId: string; reason?: string }[] }[] = [];
    bot.on('statsPosted', (report) => reports.push(report));
    bot.startAutoPost(90 * MINUTE, STATS);
    await vi.advanceTimersByTimeAsync(0);
    expect(reports[0]!.posted.map((r) => r.listId)).toEqual(['top.gg', 'yabl.xyz']);
    net.dead.add('yabl.xyz');
    await vi.advanceTimersByTimeAsync(HOUR);
    expect(boards[0]!.entries.find((e) => e.listId === 'yabl.xyz')).toMatchObject({
      state: 'shutdown',
      detail: expect.stringMatching(/DNS/),
    });
    const postsBefore = net.posts().length;
    // The next auto-post (90 min ± 5 %) skips the dead list without a request.
    await vi.advanceTimersByTimeAsync(35 * MINUTE);
    expect(reports).toHaveLength(2);
    expect(reports[1]!.posted.map((r) => r.listId)).toEqual(['top.gg']);
    expect(reports[1]!.skipped).toContainEqual(
      expect.objectContaining({ listId: 'yabl.xyz', reason: 'site shutdown' }),
    );
    expect(net.posts().slice(postsBefore)).toEqual(['PATCH https://top.gg/api/v1/projects/@me/metrics']);
    bot.stopAutoPost();
  });
});

describe('hourly status probes in a real process (built package)', () => {
  const entry = new URL('../dist/index.js', import.meta.url).href;
  it('never keep it alive: a bot auto-posting once a day exits when its work is done', async () => {
    // No tokens: the immediate post skips every list, so nothing leaves the machine.
    const script = `
      import { Botlists } from ${JSON.stringify(entry)};
      const bot = new Botlists({ botId: '1', env: {}, tokens: {}, webhook: { host: '127.0.0.1', port: 0, secret: 's' } });
      await bot.startWebhooks();
      bot.startAutoPost(86_400_000, { serverCount: 1 });
      await bot.stopWebhooks();
      console.log(JSON.stringify({ checking: bot.isCheckingStatus, posting: bot.isAutoPosting, refTimers: process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length }));
    `;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
      timeout: 20_000,
    });
    expect(JSON.parse(stdout)).toEqual({ checking: true, posting: true, refTimers: 0 });
  });
});
