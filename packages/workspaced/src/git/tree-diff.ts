/**
 * @module A diff between two trees or commits as the review shows it: each file with its
 * status, line counts and unified patch. Two git runs: `--raw -z` (statuses and exact paths,
 * no content read) and `--patch` (the one pass over contents); both list files in git's one
 * order, so the n-th patch is the n-th file, and the line counts are counted in the patch
 * rather than by a second pass (`--numstat`). Binary files and patches over
 * `maxFilePatchBytes` are marked and not inlined; past `maxBytes` of patch text the remaining
 * files are marked `truncated` (without counts). In a monorepo project only its folder is
 * compared, with paths relative to it.
 */
import { type ProjectRepository, runInRepository } from './project-repository.js';
import { runGitTruncating } from './run-git.js';

const maxFilePatchBytes = 256 * 1024;

type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type_changed';

export interface FileDiff {
  path: string;
  /** The path before a rename or copy; null otherwise. */
  old_path: string | null;
  status: FileStatus;
  /** Null for binary and truncated files. */
  additions: number | null;
  deletions: number | null;
  binary: boolean;
  /** The patch is over `maxFilePatchBytes` and left out. */
  large: boolean;
  /** The patch came after the answer's byte budget and is left out. */
  truncated: boolean;
  /** `diff --git ...` up to the next file; null when binary, large or truncated. */
  patch: string | null;
}

const statusByLetter: Record<string, FileStatus> = {
  A: 'added',
  M: 'modified',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type_changed',
};

const diffOptions = ['--no-ext-diff', '--no-textconv', '--no-color', '-M', '--full-index'];

/** `revisions`: two trees or commits, or one `A...B` (against their merge base, as `git diff A...B`). */
export async function treeDiff(
  repository: ProjectRepository,
  revisions: readonly string[],
  maxBytes: number,
): Promise<{ files: FileDiff[]; truncated: boolean }> {
  const relative = repository.prefix === '' ? [] : ['--relative'];
  const [summary, patches] = await Promise.all([
    runInRepository(repository, ['diff', ...diffOptions, ...relative, '--raw', '-z', ...revisions, '--'], {
      timeoutMs: 120_000,
    }),
    runGitTruncating(repository.root, ['diff', ...diffOptions, ...relative, '--patch', ...revisions, '--'], {
      repository,
      maxBytes,
      timeoutMs: 120_000,
    }),
  ]);
  const files = parseSummary(summary);
  const chunks = splitPatches(patches.stdout);
  files.forEach((file, index) => {
    const chunk = chunks[index];
    // The last chunk of a cut output is incomplete: count it as missing.
    if (chunk === undefined || (patches.truncated && index === chunks.length - 1)) {
      file.truncated = true;
      return;
    }
    const counts = countLines(chunk);
    if (counts === undefined) {
      file.binary = true;
      return;
    }
    file.additions = counts.additions;
    file.deletions = counts.deletions;
    if (Buffer.byteLength(chunk) > maxFilePatchBytes) file.large = true;
    else file.patch = chunk;
  });
  return { files, truncated: files.some((file) => file.truncated) };
}

/** `--raw -z`: records `:modes oids status`, then one path (two for a rename or copy). */
function parseSummary(output: string): FileDiff[] {
  const fields = output.split('\0');
  const files: FileDiff[] = [];
  let at = 0;
  while (at < fields.length && fields[at]!.startsWith(':')) {
    const letter = fields[at]!.split(' ')[4]!.charAt(0);
    const twoPaths = letter === 'R' || letter === 'C';
    const oldPath = twoPaths ? fields[at + 1]! : null;
    const newPath = fields[at + (twoPaths ? 2 : 1)]!;
    files.push({
      path: newPath,
      old_path: oldPath,
      status: statusByLetter[letter] ?? 'modified',
      additions: null,
      deletions: null,
      binary: false,
      large: false,
      truncated: false,
      patch: null,
    });
    at += twoPaths ? 3 : 2;
  }
  return files;
}

/** Added and removed lines of one file's patch; undefined for a binary file (no hunks). */
function countLines(chunk: string): { additions: number; deletions: number } | undefined {
  const hunks = chunk.indexOf('\n@@ ');
  if (hunks < 0) return chunk.includes('\nBinary files ') ? undefined : { additions: 0, deletions: 0 };
  let additions = 0;
  let deletions = 0;
  // Inside hunks every line starts with ' ', '+', '-' or '\\'; the +++/--- headers come before.
  for (
    let at = chunk.indexOf('\n', hunks + 1);
    at >= 0 && at < chunk.length - 1;
    at = chunk.indexOf('\n', at + 1)
  ) {
    const first = chunk.charCodeAt(at + 1);
    if (first === 43) additions++;
    else if (first === 45) deletions++;
  }
  return { additions, deletions };
}

function splitPatches(text: string): string[] {
  if (text === '') return [];
  const chunks: string[] = [];
  let start = 0;
  for (;;) {
    const next = text.indexOf('\ndiff --git ', start);
    if (next < 0) {
      chunks.push(text.slice(start));
      return chunks;
    }
    chunks.push(text.slice(start, next + 1));
    start = next + 1;
  }
}

export async function mergeBase(repository: ProjectRepository, a: string, b: string): Promise<string> {
  return (await runInRepository(repository, ['merge-base', a, b])).trim();
}
