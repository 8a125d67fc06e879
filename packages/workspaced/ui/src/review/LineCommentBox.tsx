/**
 * One review comment under its diff line: while written, a text box with Save and Cancel
 * (Ctrl/Cmd-Enter saves, Escape cancels); once saved, its text with Edit and Delete. Everything
 * is React text, so a comment holding markup shows as typed.
 */
import { type KeyboardEvent, useState } from 'react';
import type { LineComment } from './line-comments.js';

export function LineCommentBox({
  comment,
  onSave,
  onCancel,
  onEdit,
  onDelete,
}: {
  comment: LineComment;
  onSave: (body: string) => void;
  onCancel: () => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const [draft, setDraft] = useState(comment.body);
  const where = `${comment.path}:${comment.line} (${comment.side} side)`;
  const keys = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onCancel();
    else if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && draft.trim() !== '') onSave(draft);
  };
  if (!comment.editing)
    return (
      <section className="line-comment" aria-label={`Comment on ${where}`}>
        <p className="line-comment-text">{comment.body}</p>
        <div className="line-comment-actions">
          <button type="button" onClick={onEdit}>
            Edit
          </button>
          <button type="button" onClick={onDelete}>
            Delete
          </button>
        </div>
      </section>
    );
  return (
    <section className="line-comment" aria-label={`Comment on ${where}`}>
      <label>
        Your comment on {where}
        <textarea
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={keys}
          rows={3}
          // The box opens because the user asked for it on this line: typing goes there.
          // biome-ignore lint/a11y/noAutofocus: opened by the user's own click or Enter
          autoFocus
        />
      </label>
      <div className="line-comment-actions">
        <button type="button" onClick={() => onSave(draft)} disabled={draft.trim() === ''}>
          Save comment
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
