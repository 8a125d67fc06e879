/**
 * @module Runs the `firewarden` bin on a pseudo-terminal (util-linux `script`), so commands that
 * ask questions on a TTY can be answered: `input` is typed, what the terminal showed is returned.
 */
import { execFile } from 'node:child_process';
import { childEnvironment, cliPath } from './running-bin.js';

export function onTerminal(args: string[], input: string): Promise<string> {
  const command = [process.execPath, cliPath, ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(' ');
  return new Promise((resolve, reject) => {
    const child = execFile(
      'script',
      ['-qec', command, '/dev/null'],
      { env: childEnvironment() },
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    );
    child.stdin!.end(input);
  });
}
