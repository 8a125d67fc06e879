/**
 * Review comments on single lines of a diff, and the one follow-up prompt they become: each as
 * `path:line (old|new side)`, the line quoted (`> `, its text without the diff sign), then the
 * comment. The old side is the base branch's file, the new side the attempt's.
 */
import { anchorKey, type LineAnchor } from '../diff/line-anchor.js';

export interface LineComment extends LineAnchor {
  path: string;
  /** The saved text ('' while a new comment is first being written). */
  body: string;
  editing: boolean;
}

/** One comment per line and side of a file. */
export const commentKey = (path: string, anchor: LineAnchor) =>
  `${path}\n${anchorKey(anchor.side, anchor.line)}`;

export function followUpPrompt(comments: readonly LineComment[]): string {
  const entries = comments.map(
    (comment) =>
      `${comment.path}:${comment.line} (${comment.side} side)\n> ${comment.text}\n${comment.body.trim()}`,
  );
  return ['Review comments on your changes:', ...entries].join('\n\n');
}
