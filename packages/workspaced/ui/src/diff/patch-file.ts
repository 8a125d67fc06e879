/**
 * One file's `git diff` output (the git panel's `GET .../git/diff?path=`) as a diff file, so the
 * git panel shows it with the review's component: status from git's extended header lines,
 * counts from the patch lines, binary when git says so instead of a patch.
 */
import type { DiffFile } from '../types.js';

export function fileFromPatch(path: string, patch: string): DiffFile {
  const header = patch.slice(0, Math.max(0, patch.indexOf('\n@@')));
  const status: DiffFile['status'] = /^new file mode/m.test(header)
    ? 'added'
    : /^deleted file mode/m.test(header)
      ? 'deleted'
      : /^rename from/m.test(header)
        ? 'renamed'
        : 'modified';
  const binary = !patch.includes('\n@@') && /^Binary files /m.test(patch);
  let additions = 0;
  let deletions = 0;
  for (const line of patch.slice(header.length).split('\n')) {
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return {
    path,
    old_path: null,
    status,
    additions: binary ? null : additions,
    deletions: binary ? null : deletions,
    binary,
    large: false,
    truncated: false,
    patch: binary || patch === '' ? null : patch,
  };
}
