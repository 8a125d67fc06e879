/**
 * @module Commands fan-out: the bot's application commands list to every list that takes one
 * (registry `commands`: top.gg v1, discordbotlist.com), spaced like the stats fan-out.
 */
import { BotlistsError } from '../errors.js';
import { authValue } from '../registry/tokens.js';
import type { CommandsEndpoint, CommandsReport } from '../types.js';
import { applyId } from './post-request.js';
import { type FanOutOptions, fanOut, type StatsPosterContext, sendForResult } from './stats-poster.js';

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

/** Sends the commands to every selected list with a `commands` endpoint and a token, one after another. */
export async function postCommandsToAll(
  ctx: StatsPosterContext,
  commands: readonly ApplicationCommandJson[],
  options: FanOutOptions = {},
): Promise<CommandsReport> {
  assertCommands(commands);
  const body = JSON.stringify(commands);
  const report: CommandsReport = { posted: [], failed: [], skipped: [], commands: commands.length };
  await fanOut(
    ctx,
    options,
    report,
    (list) => list.commands != null,
    (list) => {
      const endpoint = list.commands as CommandsEndpoint;
      const token = ctx.tokens().get(list.id) as string;
      return sendForResult(ctx, list, {
        url: applyId(endpoint.url, ctx.botId()),
        method: endpoint.method,
        headers: {
          'content-type': 'application/json',
          [list.authHeader ?? 'Authorization']: authValue(token, endpoint.authScheme ?? list.authScheme),
        },
        body,
        listId: list.id,
      });
    },
  );
  return report;
}
