import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BotlistRecord, ConsoleReport, lists, StatusChecker } from '../src/index.js';
import { RecordingServer, type ScriptedReply } from './fakes/recording-server.js';

const html = (body: string, status = 200): ScriptedReply => ({
  status,
  body,
  headers: { 'content-type': 'text/html; charset=utf-8' },
});
const PAGES: Record<string, ScriptedReply> = {
  live: html('<html><title>Bot list</title><body>Top bots</body></html>'),
  parked: html('<html><body>This domain is for sale! Buy this domain today.</body></html>'),
  forbidden: html('<html>Just a moment...</html>', 403),
  struggling: html('<html>Service Unavailable</html>', 503),
  gone: html('<html>Gone</html>', 410),
  deprecated: html('<html>we moved</html>'),
};

let inFlight = 0;
let maxInFlight = 0;
const fake = new RecordingServer(async (req) => {
  const name = req.url.split('/')[1] ?? '';
  if (name === 'headless' && req.method === 'HEAD') return { status: 405 };
  if (name === 'headless') return html('<html>ok</html>');
  if (name.startsWith('slow')) {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    await new Promise((r) => setTimeout(r, 60));
    inFlight--;
    return { status: 204 };
  }
  return PAGES[name] ?? { status: 404 };
});

let base = '';
let closedPort = 0;
const record = (id: string, website: string, extra: Partial<BotlistRecord> = {}): BotlistRecord => ({
  ...lists[0]!,
  id,
  name: id,
  website,
  ...extra,
});

beforeAll(async () => {
  base = await fake.start();
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
  closedPort = (probe.address() as { port: number }).port;
  await new Promise((r) => probe.close(r));
});
afterAll(() => fake.stop());

describe('StatusChecker', () => {
  it('tells live, parked, struggling, gone, refused and unresolvable sites apart (not "below 500 means live")', async () => {
    const checker = new StatusChecker({
      lists: [
        ...Object.keys(PAGES).map((name) =>
          record(name, `${base}/${name}`, name === 'deprecated' ? { status: 'deprecated' } : {}),
        ),
        record('headless', `${base}/headless`),
        record('refused', `http://127.0.0.1:${closedPort}/`),
        record('nxdomain', 'http://botlists-status-test.invalid/'),
      ],
      timeoutMs: 3000,
    });
    const board = await checker.refresh();
    const states = Object.fromEntries(board.entries.map((e) => [e.listId, [e.state, e.httpStatus]]));
    expect(states).toEqual({
      live: ['live', 200],
      parked: ['shutdown', 200],
      forbidden: ['live', 403],
      struggling: ['unknown', 503],
      gone: ['shutdown', 410],
      deprecated: ['deprecated', 200],
      headless: ['live', 200],
      refused: ['shutdown', null],
      nxdomain: ['shutdown', null],
    });
    expect(board.entries.find((e) => e.listId === 'nxdomain')!.detail).toMatch(/DNS/);
    expect(board.entries.find((e) => e.listId === 'parked')!.detail).toMatch(/parked/);
    expect(board.summary).toEqual({ live: 3, deprecated: 1, shutdown: 4, unknown: 1 });
    const headless = fake.requests.filter((r) => r.url === '/headless').map((r) => r.method);
    expect(headless).toEqual(['HEAD', 'GET']);
  });

  it('probes at most 8 sites at a time and caches the board for 5 minutes', async () => {
    let now = 1_000_000;
    const checker = new StatusChecker({
      lists: Array.from({ length: 20 }, (_, i) => record(`slow${i}`, `${base}/slow${i}`)),
      now: () => now,
    });
    maxInFlight = 0;
    const first = await checker.refresh();
    expect(maxInFlight).toBeLessThanOrEqual(8);
    expect(maxInFlight).toBeGreaterThan(1);
    const count = fake.requests.length;
    now += 4 * 60_000;
    expect(await checker.refresh()).toBe(first);
    expect(fake.requests.length).toBe(count);
    expect(await checker.refresh(true)).not.toBe(first);
    now += 6 * 60_000;
    await checker.refresh();
    expect(fake.requests.length).toBe(count + 40);
  });

  it('renders Markdown, a console table and prefilled issue links for dead lists', () => {
    const board = {
      checkedAt: Date.UTC(2026, 0, 1),
      summary: { live: 1, deprecated: 0, shutdown: 1, unknown: 0 },
      entries: [
        {
          listId: 'a.gg',
          listName: 'A',
          website: 'https://a.gg',
          state: 'live' as const,
          httpStatus: 200,
          latencyMs: 12,
          lastChecked: 0,
          detail: 'HTTP 200',
        },
        {
          listId: 'b.xyz',
          listName: 'B|list',
          website: 'https://b.xyz',
          state: 'shutdown' as const,
          httpStatus: null,
          latencyMs: null,
          lastChecked: 0,
          detail: 'DNS failure',
        },
      ],
    };
    expect(StatusChecker.toMarkdown(board)).toBe(
      [
        '**1 live, 0 deprecated, 1 shutdown, 0 unknown** (checked 2026-01-01T00:00:00.000Z)',
        '',
        '| List | id | State | HTTP | Latency (ms) | Detail |',
        '|---|---|---|---|---|---|',
        '| A | `a.gg` | live | 200 | 12 | HTTP 200 |',
        '| B\\|list | `b.xyz` | shutdown | – | – | DNS failure |',
      ].join('\n'),
    );
    expect(ConsoleReport.table(board).split('\n')).toEqual([
      'LIST   STATE     HTTP  MS  DETAIL',
      'a.gg   live      200   12  HTTP 200',
      'b.xyz  shutdown  -     -   DNS failure',
      '',
      '1 live, 0 deprecated, 1 shutdown, 0 unknown',
    ]);
    const urls = ConsoleReport.issueUrls(board, 'me/repo');
    expect(urls).toHaveLength(1);
    const url = new URL(urls[0]!);
    expect(url.origin + url.pathname).toBe('https://github.com/me/repo/issues/new');
    expect(url.searchParams.get('title')).toBe('List shutdown: b.xyz');
    expect(url.searchParams.get('body')).toContain('DNS failure');
  });
});

describe('botlists status (built CLI)', () => {
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, [cli, ...args]).then(
      (r) => ({ code: 0, ...r }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );

  it('probes the lists at a base URL override and prints the board', async () => {
    const { code, stdout } = await run([
      'status',
      '--base-url',
      base,
      '--list',
      'topgg',
      '--list',
      'yabl.xyz',
      '--format',
      'json',
    ]);
    expect(code).toBe(0);
    const board = JSON.parse(stdout);
    expect(
      board.entries.map((e: { listId: string; state: string; httpStatus: number }) => [
        e.listId,
        e.state,
        e.httpStatus,
      ]),
    ).toEqual([
      ['top.gg', 'live', 404],
      ['yabl.xyz', 'live', 404],
    ]);
    expect(fake.requests.some((r) => r.url === '/top.gg' && r.method === 'HEAD')).toBe(true);
    const table = await run(['status', '--base-url', base, '--list', 'top.gg']);
    expect(table.stdout).toMatch(/^LIST\s+STATE/);
    expect(table.stdout).toContain('1 live, 0 deprecated, 0 shutdown, 0 unknown');
  });

  it('exits 2 with usage on bad input and 1 with --strict when a list is not live', async () => {
    expect((await run(['status', '--list', 'discord'])).code).toBe(2);
    expect((await run(['status', '--format', 'xml'])).code).toBe(2);
    expect((await run(['nope'])).code).toBe(2);
    expect((await run(['status', '--bogus'])).code).toBe(2);
    expect((await run(['status', '--timeout'])).code).toBe(2);
    expect((await run(['--help'])).code).toBe(0);
    const strict = await run([
      'status',
      '--base-url',
      `http://127.0.0.1:${closedPort}`,
      '--list',
      'top.gg',
      '--strict',
    ]);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('shutdown');
  });
});
