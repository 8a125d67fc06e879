/**
 * @module Test support: stand-ins for `xdg-open` and `systemctl` in a folder to put first on PATH.
 * Each appends its argv (name, then the arguments, tab-separated) as one line to a record file.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface RecordingCommands {
  /** Prepend to PATH. */
  binDir: string;
  /** The recorded command lines so far, each split into argv. */
  recorded(): Promise<string[][]>;
  remove(): Promise<void>;
}

/** With `failing`, those stand-ins also print a refusal on stderr and exit 1 (as systemctl denied by polkit). */
export async function createRecordingCommands(
  names: string[],
  options: { failing?: string[] } = {},
): Promise<RecordingCommands> {
  const dir = await mkdtemp(path.join(tmpdir(), 'firewarden-tray-cmds-'));
  const record = path.join(dir, 'record');
  await writeFile(record, '');
  for (const name of names) {
    const script = path.join(dir, name);
    await writeFile(
      script,
      `#!/bin/sh\n{ printf '%s' '${name}'; for arg in "$@"; do printf '\\t%s' "$arg"; done; printf '\\n'; } >> '${record}'\n${
        options.failing?.includes(name) ? "echo 'Access denied' >&2\nexit 1\n" : ''
      }`,
    );
    await chmod(script, 0o755);
  }
  return {
    binDir: dir,
    async recorded() {
      const text = await readFile(record, 'utf8');
      // A stand-in writes its line in several pieces: one still being written is not recorded yet.
      return text
        .split('\n')
        .slice(0, -1)
        .map((line) => line.split('\t'));
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
