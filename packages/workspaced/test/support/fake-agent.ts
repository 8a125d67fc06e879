/**
 * @module A stand-in coding agent for tests: an executable named like a real agent (`claude`,
 * `codex`) that asks `question` and waits, then shows the "working" spinner text, then waits for
 * one more line and exits. Agent detection sees its name in the process tree and its output.
 */
import { chmod, writeFile } from 'node:fs/promises';
import path from 'node:path';

export async function writeFakeAgent(dir: string, name: string, question: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(
    file,
    `#!/bin/sh\nprintf '%s ' '${question}'\nread answer\nprintf '\\033[2mworking (esc to interrupt)\\033[0m\\n'\nread done\n`,
  );
  await chmod(file, 0o755);
  return file;
}
