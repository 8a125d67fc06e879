/**
 * @module Stand-ins for the coding agents (real ones need the internet): one executable per
 * built-in profile, named like it, in a folder the test puts first on the daemon's PATH. Each
 * reads its prompt the way that agent does (claude `-p ... <prompt>`, codex `exec ... -` on
 * stdin, gemini `--prompt <prompt>`, opencode `run <prompt>`, aider `--message-file <file>`,
 * cursor-agent `--print ... <prompt>`) and refuses (exit 64) an invocation that lacks the
 * documented non-interactive flags. The prompt is a script of steps separated by `;;`:
 * `write <path> <text>`, `commit <message>` (everything, like an agent that commits),
 * `print <text>`, `wait` (read one line from the terminal: more steps), `exit <code>`.
 * It prints `<agent> received: <prompt>` first.
 */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { scratchDir } from './scratch.js';

export const standInAgentNames = ['claude', 'codex', 'gemini', 'opencode', 'aider', 'cursor-agent'] as const;

const script = (agent: string) => `#!/usr/bin/env node
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

const agent = ${JSON.stringify(agent)};
const argv = process.argv.slice(2);
const refuse = (why) => { process.stdout.write(agent + ': usage: ' + why + '\\n'); process.exit(64); };
const after = (flag) => { const at = argv.indexOf(flag); return at < 0 ? refuse('needs ' + flag) : argv[at + 1]; };
const has = (flag) => argv.includes(flag) || refuse('needs ' + flag);

function readPrompt() {
  switch (agent) {
    case 'claude': has('-p'); if (after('--permission-mode') !== 'acceptEdits') refuse('acceptEdits'); return argv.at(-1);
    case 'codex':
      if (argv[0] !== 'exec' || argv.at(-1) !== '-' || after('--sandbox') !== 'workspace-write') refuse('exec --sandbox workspace-write -');
      return readFileSync(0, 'utf8');
    case 'gemini': has('--yolo'); return after('--prompt');
    case 'opencode': if (argv[0] !== 'run' || argv.length !== 2) refuse('run <message>'); return argv[1];
    case 'aider': has('--yes-always'); return readFileSync(after('--message-file'), 'utf8');
    case 'cursor-agent': has('--print'); has('--force'); return argv.at(-1);
  }
}

const git = (...args) => execFileSync('git', args, {
  env: { ...process.env, GIT_AUTHOR_NAME: agent, GIT_AUTHOR_EMAIL: agent + '@agents.test', GIT_COMMITTER_NAME: agent, GIT_COMMITTER_EMAIL: agent + '@agents.test' },
  stdio: ['ignore', 'ignore', 'inherit'],
});

let lines;
const nextLine = () => new Promise((resolve) => {
  lines ??= readline.createInterface({ input: process.stdin });
  lines.once('line', resolve);
});

async function run(text) {
  for (const raw of text.split(/;;|\\n/)) {
    const step = raw.trim();
    const [verb, ...rest] = step.split(' ');
    const argument = rest.join(' ');
    if (verb === 'write') {
      const [file, ...words] = rest;
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, words.join(' ').replaceAll('\\\\n', '\\n'));
    } else if (verb === 'commit') {
      git('add', '-A');
      git('commit', '-q', '-m', argument);
    } else if (verb === 'print') process.stdout.write(argument + '\\n');
    else if (verb === 'wait') {
      process.stdout.write(agent + ' waiting for input\\n');
      const line = await nextLine();
      process.stdout.write(agent + ' got: ' + line + '\\n');
      await run(line);
    } else if (verb === 'exit') process.exit(Number(argument));
  }
}

const prompt = readPrompt();
process.stdout.write(agent + ' received: ' + prompt + '\\n');
await run(prompt);
process.exit(0);
`;

/** A folder holding the six stand-ins (and their shared name list), to put first on PATH. */
export async function standInAgents(): Promise<string> {
  const folder = path.join(await scratchDir('agents'), 'bin');
  await mkdir(folder);
  for (const name of standInAgentNames) {
    const file = path.join(folder, name);
    // .mjs semantics for top-level await: node reads an extensionless file as CommonJS, so the
    // executable imports the module next to it.
    await writeFile(`${file}.mjs`, script(name));
    await writeFile(file, `#!/bin/sh\nexec node "$0.mjs" "$@"\n`);
    await chmod(file, 0o755);
  }
  return folder;
}

/** PATH with `folder` first. */
export const pathWith = (folder: string) => `${folder}${path.delimiter}${process.env.PATH ?? ''}`;
