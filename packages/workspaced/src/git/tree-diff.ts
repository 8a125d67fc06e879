/**
 * @module A diff between two trees or commits as the review shows it: each file with its
 * status, line counts and unified patch (`--raw --numstat` and `--patch`, both in git's one
 * order, so the n-th patch is the n-th file). Binary files and patches over `maxFilePatchBytes`
 * are marked and not inlined; past `maxBytes` of patch text the remaining files are marked
 * `truncated`. In a monorepo project only its folder is compared, with paths relative to it.
 */
import { type ProjectRepository, runInRepository } from './project-repository.js';
import { runGitTruncating } from './run-git.js';

export const maxFilePatchBytes = 256 * 1024;

export type FileStatus = 'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type_changed';

export interface FileDiff {
  path: string;
  /** The path before a rename or copy; null otherwise. */
  old_path: string | null;
  status: FileStatus;
  /** Null for binary files. */
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

export async function treeDiff(
  repository: ProjectRepository,
  from: string,
  to: string,
  maxBytes: number,
): Promise<{ files: FileDiff[]; truncated: boolean }> {
  const relative = repository.prefix === '' ? [] : ['--relative'];
  const [summary, patches] = await Promise.all([
    runInRepository(
      repository,
      ['diff', ...diffOptions, ...relative, '--raw', '--numstat', '-z', from, to, '--'],
      {
        timeoutMs: 120_000,
      },
    ),
    runGitTruncating(repository.root, ['diff', ...diffOptions, ...relative, '--patch', from, to, '--'], {
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
    const complete = chunk !== undefined && !(patches.truncated && index === chunks.length - 1);
    if (!complete) file.truncated = true;
    else if (file.binary) file.patch = null;
    else if (Buffer.byteLength(chunk) > maxFilePatchBytes) file.large = true;
    else file.patch = chunk;
  });
  return { files, truncated: files.some((file) => file.truncated) };
}

/** `--raw --numstat -z`: the raw records (`:modes oids status`, then one or two paths), then numstat. */
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
  for (const file of files) {
    const [added, deleted, inline] = (fields[at] ?? '').split('\t');
    // A rename's numstat names its two paths in the next two fields.
    at += inline === '' ? 3 : 1;
    if (added === '-') file.binary = true;
    else {
      file.additions = Number(added);
      file.deletions = Number(deleted);
    }
  }
  return files;
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
