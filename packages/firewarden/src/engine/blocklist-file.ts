/**
 * @module A blocklist file's text read as entries: one a line, `#` starting a comment, blank
 * lines and spaces ignored. Each entry keeps the line (from 1) it came from, so an error about
 * `entries.N` can name the line the user sees. No Node import: the web UI reads pasted text with
 * it, as `firewarden blocklist set --file` reads a file.
 */
export interface BlocklistFileLines {
  entries: string[];
  /** `lines[i]`: the line entry `i` came from. */
  lines: number[];
}

export function readBlocklistFile(text: string): BlocklistFileLines {
  const entries: string[] = [];
  const lines: number[] = [];
  text.split('\n').forEach((line, index) => {
    const hash = line.indexOf('#');
    const entry = (hash === -1 ? line : line.slice(0, hash)).trim();
    if (entry === '') return;
    entries.push(entry);
    lines.push(index + 1);
  });
  return { entries, lines };
}
