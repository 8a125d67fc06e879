/**
 * @module The blocklists' sets across ufw's starts. ufw loads `before.rules`, whose
 * `firewarden-blocklists` chain matches our ipset sets, and a `--match-set` line cannot load
 * without its set: after a reboot the kernel has none. ufw's init runs an executable
 * `/etc/ufw/before.init start` before it loads its rules (and fails when it fails), so a marked
 * block there creates each missing set from a copy the agent keeps on disk (`ufw-blocklists/` in
 * its state folder, one `ipset restore` file per set, written durably before any rule can name
 * it). Sets that exist are left as they are (the agent keeps them right; a `ufw reload` costs no
 * rebuild), and `before.init stop` does nothing to them, so the lists stay readable while ufw is
 * off. The block sits after the script's `#!` line, so the admin's own script runs on after it;
 * it is there while any list exists and removed with the last one.
 */
import { chmod, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type Blocklist, setName } from '../engine/blocklist.js';
import { blockBegin, blockEnd, withoutBlock } from '../engine/ufw-blocklist-rules.js';
import { ufwBeforeInit } from '../firewall/ufw-files.js';
import { AgentError } from './agent-error.js';
import type { SetsMirror } from './blocklist-sets.js';
import { setRestoreText } from './blocklist-sets.js';
import { removeDurably, writeDurably } from './durable-file.js';
import { families } from './iptables-backend.js';

const copySuffix = '.restore';

export class UfwBlocklistHook implements SetsMirror {
  readonly folder: string;

  constructor(stateDir: string) {
    this.folder = path.join(stateDir, 'ufw-blocklists');
  }

  async written(lists: readonly Blocklist[]): Promise<void> {
    if (lists.length === 0) return;
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    for (const list of lists) {
      for (const family of families) {
        // Built in the staging set and renamed: a failure part-way leaves no half set behind.
        await writeDurably(this.copyOf(setName(list.name, family)), setRestoreText(list, family, new Set()));
      }
    }
    await this.writeInit();
  }

  async destroyed(names: readonly string[]): Promise<void> {
    for (const name of names) {
      for (const family of families) await removeDurably(this.copyOf(setName(name, family)));
    }
    await this.writeInit();
  }

  /** Copies for the lists that have none (lists set before the hook existed). */
  async ensureCopies(lists: readonly Blocklist[]): Promise<void> {
    const have = new Set(await this.copies());
    await this.written(lists.filter((list) => !have.has(setName(list.name, 'ipv4'))));
  }

  /** before.init with our block while any copy exists, without it otherwise. */
  async writeInit(): Promise<void> {
    const current = await readFile(ufwBeforeInit, 'utf8').catch(() => null);
    await this.putInit(
      initWithBlock(current, this.folder, (await this.copies()).length > 0, await executable()),
    );
  }

  /**
   * Writes before.init's `content` (null: no file), executable while it holds our block; when our
   * block goes from a file firewarden made executable, its execute bits go too. A restore point's
   * before.init is put back so, mode included.
   */
  async putInit(content: string | null): Promise<void> {
    const current = await readFile(ufwBeforeInit, 'utf8').catch(() => null);
    if (content === null) {
      if (current !== null) await removeDurably(ufwBeforeInit);
      return;
    }
    const mode = ((await stat(ufwBeforeInit).catch(() => null))?.mode ?? 0o640) & 0o777;
    const hooked = content.includes(`\n${blockBegin}\n`);
    const unhooked = current?.includes(`\n${madeExecutable}\n`) === true && !hooked;
    const wanted = hooked ? mode | 0o100 : unhooked ? mode & ~0o111 : mode;
    if (content !== current) await writeDurably(ufwBeforeInit, content, wanted);
    // ufw-init runs before.init only when it is executable (Debian ships it 0640).
    if (wanted !== mode || content !== current) await chmod(ufwBeforeInit, wanted);
  }

  private async copies(): Promise<string[]> {
    const names = await readdir(this.folder).catch(() => [] as string[]);
    return names.filter((name) => name.endsWith(copySuffix)).map((name) => name.slice(0, -copySuffix.length));
  }

  private copyOf(set: string): string {
    return path.join(this.folder, `${set}${copySuffix}`);
  }
}

const shell = '#!/bin/sh';

/** In our block when firewarden set the file's execute bit: it is cleared with the block. */
const madeExecutable =
  '# firewarden made this file executable for this block: removing the block clears that.';

async function executable(): Promise<boolean | null> {
  const info = await stat(ufwBeforeInit).catch(() => null);
  return info === null ? null : (info.mode & 0o111) !== 0;
}

/**
 * before.init's text with our block (`hooked`) or without it; null: no file (it held only a
 * shebang besides our block). `executable`: whether the file is executable now (null: absent).
 * A script that is not a shell script cannot take the block.
 */
export function initWithBlock(
  current: string | null,
  folder: string,
  hooked: boolean,
  executable: boolean | null,
): string | null {
  const bare = current === null ? null : withoutBlock(current);
  if (!hooked) return bare === null || bare.trim() === shell ? null : bare;
  const script = bare ?? `${shell}\n`;
  const newline = script.indexOf('\n');
  const first = newline === -1 ? script : script.slice(0, newline);
  if (!/^#!\s*\S*\/(sh|dash|bash)(\s|$)/.test(first)) {
    throw new AgentError(
      'FW_APPLY_FAILED',
      `${ufwBeforeInit} is not a shell script (its first line is not #!/bin/sh): firewarden cannot add the block that creates the blocklists' sets at ufw's start`,
    );
  }
  // Whether firewarden made the file executable is kept from the block being replaced.
  const made = current?.includes(`\n${madeExecutable}\n`) === true || executable === false;
  const rest = newline === -1 ? '\n' : script.slice(newline + 1);
  return `${first}\n${initBlock(folder, made).join('\n')}\n${rest}`;
}

function initBlock(folder: string, made: boolean): string[] {
  return [
    blockBegin,
    ...(made ? [madeExecutable] : []),
    '# ufw loads before*.rules (their firewarden-blocklists chain matches ipset sets) after this',
    "# script: each missing set is created from firewarden's copy; existing sets are left as they are.",
    'if [ "$1" = start ]; then',
    `\tfor copy in ${shellQuoted(folder)}/*${copySuffix}; do`,
    '\t\t[ -e "$copy" ] || continue',
    `\t\tset=\${copy##*/}; set=\${set%${copySuffix}}`,
    '\t\tipset -n list "$set" >/dev/null 2>&1 && continue',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion (fw4-x -> fwn4-x, the staging set)
    '\t\tipset -exist destroy "fwn${set#fw}"',
    '\t\tipset restore <"$copy" || { echo "firewarden: cannot create ipset set $set from $copy" >&2; exit 1; }',
    '\tdone',
    'fi',
    blockEnd,
  ];
}

function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}
