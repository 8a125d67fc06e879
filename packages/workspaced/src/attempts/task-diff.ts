/**
 * @module `GET /tasks/{id}/diff`: the attempt's branch, with the worktree's uncommitted work,
 * against its merge base with the base branch, file by file (git/tree-diff.ts). The diff of the
 * committed work runs alongside the worktree snapshot and is the answer when the snapshot shows
 * nothing uncommitted; otherwise the snapshot is compared (the first diff is then wasted work).
 */
import { withGitErrors } from '../git/git-errors.js';
import { mergeBase, treeDiff } from '../git/tree-diff.js';
import { worktreeHead, worktreeTree } from '../git/worktree-snapshot.js';
import type { ReviewTarget } from './review-target.js';

/** Patch text returned at most in one answer; files beyond it are marked `truncated`. */
const maxDiffBytes = 16 * 1024 * 1024;

export function taskDiff({ attempt, worktree }: ReviewTarget) {
  return withGitErrors(async () => {
    const baseRef = `refs/heads/${attempt.base_branch}`;
    // Started at once on the committed work: that is the whole diff when nothing is uncommitted
    // (the usual case once an agent committed), so the snapshot is not waited for first.
    const committed = treeDiff(worktree, [`${baseRef}...HEAD`], maxDiffBytes);
    committed.catch(() => {});
    const [head, tree, base] = await Promise.all([
      worktreeHead(worktree),
      worktreeTree(worktree),
      mergeBase(worktree, baseRef, 'HEAD'),
    ]);
    const { files, truncated } =
      tree === head.tree ? await committed : await treeDiff(worktree, [base, tree], maxDiffBytes);
    return {
      task_id: attempt.task_id,
      attempt_id: attempt.id,
      branch: attempt.branch,
      base_branch: attempt.base_branch,
      merge_base: base,
      head: head.commit,
      uncommitted: tree !== head.tree,
      additions: files.reduce((sum, file) => sum + (file.additions ?? 0), 0),
      deletions: files.reduce((sum, file) => sum + (file.deletions ?? 0), 0),
      truncated,
      files,
    };
  });
}
