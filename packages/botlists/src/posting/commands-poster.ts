/**
 * @module Commands fan-out: the bot's application commands list to every list that takes one
 * (registry `commands`: top.gg v1, discordbotlist.com), spaced like the stats fan-out.
 */
import { BotlistsError } from '../errors.js';
import { sleep } from '../http/http-client.js';
import { authValue } from '../registry/tokens.js';
import type { BotlistRecord, CommandsReport, PostResult } from '../types.js';
import { applyId } from './post-request.js';
import { addResult, type FanOutOptions, type StatsPosterContext } from './stats-poster.js';

/** A Discord application command as Discord's API serialises it (`command.toJSON()`). */
export type ApplicationCommandJson = { readonly name: string };

/** Refuses what no list accepts: an empty list or a command without a name. */
export function assertCommands(commands: readonly ApplicationCommandJson[]): void {
  if (!Array.isArray(commands) || commands.length === 0)
    throw new BotlistsError('postCommands: give at least one application command');
  commands.forEach((command, index) => {
    if (typeof command !== 'object' || command === null || typeof command.name !== 'string' || !command.name)
      throw new BotlistsError(`postCommands: commands[${index}] needs a name (pass command.toJSON())`);
  });
}

async function postCommandsToList(
  ctx: StatsPosterContext,
  list: BotlistRecord,
  body: string,
): Promise<PostResult> {
  const endpoint = list.commands;
  const token = ctx.tokens().get(list.id);
  if (!endpoint)
    return { listId: list.id, outcome: 'skipped', status: null, reason: 'list takes no commands' };
  if (!token) return { listId: list.id, outcome: 'skipped', status: null, reason: 'no token' };
  try {
    const res = await ctx.http.send({
      url: applyId(endpoint.url, ctx.botId()),
      method: endpoint.method,
      headers: {
        'content-type': 'application/json',
        [list.authHeader ?? 'Authorization']: authValue(token, endpoint.authScheme ?? list.authScheme),
      },
      body,
      listId: list.id,
    });
    const ok = res.status >= 200 && res.status < 300;
    const result: PostResult = { listId: list.id, outcome: ok ? 'posted' : 'failed', status: res.status };
    if (!ok) {
      result.reason = res.body.slice(0, 200) || `HTTP ${res.status}`;
      result.retryAfter = res.retryAfter;
    }
    return result;
  } catch (error) {
    return { listId: list.id, outcome: 'failed', status: null, reason: (error as Error).message };
  }
}

/** Sends the commands to every selected list with a `commands` endpoint and a token, one after another. */
export async function postCommandsToAll(
  ctx: StatsPosterContext,
  commands: readonly ApplicationCommandJson[],
  options: FanOutOptions = {},
): Promise<CommandsReport> {
  assertCommands(commands);
  const only = options.only ? new Set(options.only) : null;
  const skip = new Set(options.skip ?? []);
  const body = JSON.stringify(commands);
  const report: CommandsReport = { posted: [], failed: [], skipped: [], commands: commands.length };
  let sentOne = false;
  for (const list of ctx.lists()) {
    if (!list.commands || (only && !only.has(list.id)) || skip.has(list.id)) continue;
    if (!ctx.tokens().has(list.id)) {
      addResult(report, { listId: list.id, outcome: 'skipped', status: null, reason: 'no token' });
      continue;
    }
    if (sentOne && ctx.spacingMs > 0) await sleep(ctx.spacingMs);
    sentOne = true;
    addResult(report, await postCommandsToList(ctx, list, body));
  }
  return report;
}
