#!/usr/bin/env node
/**
 * @module `botlists status`: probes every list and prints the board (table, Markdown or JSON).
 */
import { builtInLists } from './registry/lists.generated.js';
import { resolveList } from './registry/resolve-list.js';
import { ConsoleReport } from './status/console-report.js';
import { StatusChecker } from './status/status-checker.js';

const USAGE = `Usage: botlists status [options]

Probes every listing site of the registry (HEAD, GET when refused; 8 at a time) and prints the board.

Options:
  --format <table|markdown|json>  output format (default table)
  --list <id>                     probe only this list (repeatable; ids, domains or aliases)
  --base-url <url>                probe <url>/<list id> instead of each website (mirrors, offline tests)
  --timeout <ms>                  per-probe timeout (default 8000)
  --issues                        also print prefilled removal-issue URLs for dead lists
  --repo <owner/name>             repository of those issue URLs
  --strict                        exit 1 when any list is not live
  -h, --help                      show this help`;

async function main(argv: string[]): Promise<number> {
  let parsed: CliOptions;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    console.error(`botlists: ${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] !== 'status') {
    (values.help ? console.log : console.error)(USAGE);
    return values.help ? 0 : 2;
  }
  const format = values.format ?? 'table';
  if (!['table', 'markdown', 'json'].includes(format)) {
    console.error(`botlists: --format must be table, markdown or json`);
    return 2;
  }
  const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    console.error('botlists: --timeout must be a positive integer (ms)');
    return 2;
  }
  const lists = [];
  for (const query of values.list ?? []) {
    let found: ReturnType<typeof resolveList>;
    try {
      found = resolveList(query);
    } catch (error) {
      console.error(`botlists: ${(error as Error).message}`);
      return 2;
    }
    if (!found) {
      console.error(`botlists: unknown list "${query}"`);
      return 2;
    }
    lists.push(found);
  }
  const checker = new StatusChecker({
    lists: lists.length > 0 ? lists : builtInLists,
    ...(values['base-url'] ? { baseUrl: values['base-url'] } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  const board = await checker.refresh(true);
  if (format === 'json') console.log(JSON.stringify(board, null, 2));
  else console.log(format === 'markdown' ? StatusChecker.toMarkdown(board) : ConsoleReport.table(board));
  if (values.issues) {
    const urls = ConsoleReport.issueUrls(board, values.repo);
    if (urls.length > 0) console.log(`\n${urls.join('\n')}`);
  }
  return values.strict && board.summary.live !== board.entries.length ? 1 : 0;
}

interface CliOptions {
  values: {
    format?: string;
    list?: string[];
    'base-url'?: string;
    timeout?: string;
    issues?: boolean;
    repo?: string;
    strict?: boolean;
    help?: boolean;
  };
  positionals: string[];
}

const VALUE_OPTIONS = new Set(['format', 'list', 'base-url', 'timeout', 'repo']);
const FLAG_OPTIONS = new Set(['issues', 'strict', 'help']);

/** `--name value`, `--name=value` and flags; a hand-rolled parser keeps Node 18.0 (no util.parseArgs) supported. */
function parseOptions(argv: string[]): CliOptions {
  const values: CliOptions['values'] = {};
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h') {
      values.help = true;
      continue;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = arg.slice(2).split(/=(.*)/s) as [string, string | undefined];
    if (FLAG_OPTIONS.has(name)) {
      if (inline !== undefined) throw new Error(`--${name} takes no value`);
      values[name as 'issues' | 'strict' | 'help'] = true;
      continue;
    }
    if (!VALUE_OPTIONS.has(name)) throw new Error(`unknown option --${name}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    if (name === 'list') values.list = [...(values.list ?? []), value];
    else values[name as 'format' | 'base-url' | 'timeout' | 'repo'] = value;
  }
  return { values, positionals };
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: Error) => {
    console.error(`botlists: ${error.message}`);
    process.exitCode = 1;
  },
);
