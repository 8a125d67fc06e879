/**
 * @module `game-stats top` and `game-stats player`: read a server folder once and print a
 * leaderboard or a player as tables (or JSON), by asking the in-process API so the output
 * matches the HTTP answers exactly.
 */
import type { Config } from '../config/schema.js';
import { formatTicks } from '../format/units.js';
import type { LeaderboardBody, PlayerSummaryBody } from '../http/response-schemas.js';
import { createStatsApi } from '../stats-api.js';
import { renderTable } from './table.js';

interface OfflineOptions {
  config: Config;
  json: boolean;
  /** Where progress goes (a terminal), if anywhere. */
  progress?: (line: string) => void;
}

interface CommandOutput {
  exitCode: number;
  text: string;
}

/** One GET against a one-shot, unsecured, in-process API. */
async function askApi(options: OfflineOptions, path: string): Promise<{ status: number; body: unknown }> {
  const api = await createStatsApi({
    config: {
      ...options.config,
      security: { ...options.config.security, 'enable-api-key': false, 'enable-ip-whitelist': false },
      'rate-limit': { ...options.config['rate-limit'], enabled: false },
      compression: { enabled: false },
    },
    live: false,
    peerAddress: () => '127.0.0.1',
    onProgress: (done, total) => options.progress?.(`indexing ${done}/${total} statistics files`),
  });
  try {
    const response = await api.fetch(new Request(`http://game-stats.local${path}`));
    return { status: response.status, body: await response.json() };
  } finally {
    api.close();
  }
}

function failure(status: number, body: unknown): CommandOutput | null {
  if (status !== 200)
    return { exitCode: 1, text: `error: ${(body as { error?: string }).error ?? `HTTP ${status}`}` };
  if ((body as { error?: unknown }).error === true) return { exitCode: 1, text: 'error: Stats not found' };
  return null;
}

export async function topCommand(
  options: OfflineOptions & { stat: string; limit?: string; page?: string; order?: string },
): Promise<CommandOutput> {
  const query = new URLSearchParams();
  if (options.limit !== undefined) query.set('limit', options.limit);
  if (options.page !== undefined) query.set('page', options.page);
  if (options.order !== undefined) query.set('order', options.order);
  const { status, body } = await askApi(
    options,
    `/api/leaderboard/${encodeURIComponent(options.stat)}?${query}`,
  );
  const failed = failure(status, body);
  if (failed) return failed;
  if (options.json) return { exitCode: 0, text: JSON.stringify(body, null, 2) };
  const board = body as LeaderboardBody;
  const table = renderTable(board.entries, [
    { title: 'RANK', value: (entry) => entry.rank },
    { title: 'NAME', value: (entry) => entry.name },
    { title: board.stat.toUpperCase(), value: (entry) => entry.formatted ?? entry.value },
    { title: 'UUID', value: (entry) => entry.uuid },
  ]);
  const shown = board.entries.length;
  return { exitCode: 0, text: `${table}\n\n${shown} of ${board.total} players (page ${board.page})` };
}

export async function playerCommand(options: OfflineOptions & { id: string }): Promise<CommandOutput> {
  const { status, body } = await askApi(options, `/api/player/${encodeURIComponent(options.id)}/summary`);
  const failed = failure(status, body);
  if (failed) return failed;
  if (options.json) return { exitCode: 0, text: JSON.stringify(body, null, 2) };
  const summary = body as PlayerSummaryBody;
  const rows: [string, string | number][] = [
    ['Name', summary.name],
    ['UUID', summary.uuid],
    ['Play time', `${formatTicks(summary.playtime_ticks)} (${summary.playtime_ticks} ticks)`],
    ['Deaths', summary.combat?.deaths ?? 0],
    ['Player kills', summary.combat?.player_kills ?? 0],
    ['Mob kills', summary.combat?.mob_kills ?? 0],
    ['Damage dealt (tenths of HP)', summary.combat?.damage_dealt ?? 0],
    ['Damage taken (tenths of HP)', summary.combat?.damage_taken ?? 0],
    ['Distance (km)', summary.movement?.total_distance_km ?? 0],
    ['Jumps', summary.movement?.jumps ?? 0],
    ['Blocks mined', summary.activity?.blocks_mined ?? 0],
    ['Items crafted', summary.activity?.items_crafted ?? 0],
    ['Items picked up', summary.activity?.items_picked_up ?? 0],
    ['Chests opened', summary.activity?.chests_opened ?? 0],
  ];
  return {
    exitCode: 0,
    text: renderTable(rows, [
      { title: 'STAT', value: (row) => row[0] },
      { title: 'VALUE', value: (row) => String(row[1]) },
    ]),
  };
}
