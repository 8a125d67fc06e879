/**
 * @module Size limits of the file routes (README "Files"): a whole file travels in one JSON
 * body, so both directions are bounded.
 */

export interface FileLimits {
  /** Largest file `files/read` returns; default 10 MiB. */
  maxReadBytes: number;
  /** Largest decoded content `files/write` accepts; default 10 MiB. */
  maxWriteBytes: number;
  /** Entries `files` lists before it answers `truncated: true`; default 10,000. */
  maxListEntries: number;
}

export const defaultFileLimits: FileLimits = {
  maxReadBytes: 10 * 1024 * 1024,
  maxWriteBytes: 10 * 1024 * 1024,
  maxListEntries: 10_000,
};

/** The JSON body of a write: base64 grows content by 4/3, plus room for the other fields. */
export function writeBodyLimit(limits: FileLimits): number {
  return Math.ceil((limits.maxWriteBytes * 4) / 3) + 64 * 1024;
}
