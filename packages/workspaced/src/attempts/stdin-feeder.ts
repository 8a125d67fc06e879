/**
 * @module The helper behind `prompt_via: "stdin"`: `node stdin-feeder.js <prompt file> <program>
 * [args...]`. A PTY gives its program the terminal as standard input, so the agent is started
 * by this helper instead: it reads the prompt file (0600, in the data dir) and deletes it, runs
 * the program with a pipe as standard input (the prompt, then end of file) and the terminal as
 * its output, passes the terminal's signals on and exits as the program did. No shell anywhere.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const [promptFile, program, ...args] = process.argv.slice(2);
if (promptFile === undefined || program === undefined) {
  process.stderr.write('usage: stdin-feeder <prompt file> <program> [args...]\n');
  process.exit(2);
}
const prompt = readFileSync(promptFile);
rmSync(promptFile, { force: true });

const child = spawn(program, args, { stdio: ['pipe', 'inherit', 'inherit'] });
child.stdin.on('error', () => {}); // a program that never reads its input closes the pipe early
child.stdin.end(prompt);
for (const signal of ['SIGHUP', 'SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => {
    child.kill(signal);
  });
child.on('error', (error) => {
  process.stderr.write(`cannot start ${program}: ${error.message}\n`);
  process.exit(127);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1));
});
