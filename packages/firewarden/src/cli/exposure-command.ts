/**
 * @module `firewarden status --exposure`: every listening socket of the agent's host and whether
 * the ruleset in force lets the outside reach it, asked of the agent (`exposure`), as a table or
 * `--json`.
 */
import type { CommandContext } from './command-context.js';
import { type Output, printJson, printLines, table } from './output.js';
import { askAgent } from './restore-commands.js';

interface ExposedSocket {
  protocol: string;
  address: string;
  port: number;
  process: string | null;
  exposure: string;
  rules: number[];
}

export async function exposureCommand(context: CommandContext, output: Output): Promise<void> {
  const answer = await askAgent<{ sockets: ExposedSocket[] }>(context, output, 'exposure');
  if (answer === null) return;
  if (output.json) return printJson(answer);
  printLines(
    table(
      ['PROTO', 'ADDRESS', 'PORT', 'PROCESS', 'EXPOSURE', 'RULES'],
      answer.sockets.map((s) => [
        s.protocol,
        s.address,
        String(s.port),
        s.process ?? '-',
        s.exposure,
        s.rules.length > 0 ? s.rules.join(',') : '-',
      ]),
    ),
  );
}
