/**
 * The review of a task's attempt: its diff (`GET /tasks/{id}/diff`) one file per collapsible
 * box (`diff/FileDiff.tsx`: status, line counts, highlighted lines; a big diff opens only its
 * first files), unified or side by side; comments on single lines (a line number opens a box
 * under its line; several per file, edited or deleted before sending) that become the next
 * follow-up prompt (`review/line-comments.ts`); Land with a strategy (409 LAND_CONFLICT and WORKTREE_DIRTY
 * list their paths) and Pull request (424 FORGE_UNAVAILABLE shows its reason).
 */
import { errorText, useLoad } from '@suite/web-ui';
import { type ReactNode, useMemo, useState } from 'react';
import { ApiFailure, api } from '../api.js';
import { initiallyOpen } from '../diff/collapse-policy.js';
import { type DiffLayout, FileDiff, type LineNotes } from '../diff/FileDiff.js';
import { LayoutSwitch } from '../diff/LayoutSwitch.js';
import { anchorKey, type LineAnchor } from '../diff/line-anchor.js';
import { LineCommentBox } from '../review/LineCommentBox.js';
import { commentKey, followUpPrompt, type LineComment } from '../review/line-comments.js';
import type { Attempt, Task, TaskDiff } from '../types.js';

const strategies = ['merge', 'squash', 'rebase'] as const;

/** A refusal as shown: the message, the reason a 424 gives, and the paths a 409 names. */
interface Refusal {
  code: string;
  message: string;
  paths: string[];
}

function refusal(failure: unknown): Refusal {
  if (!(failure instanceof ApiFailure)) return { code: 'UNKNOWN', message: errorText(failure), paths: [] };
  const reason = typeof failure.body.reason === 'string' ? `: ${failure.body.reason}` : '';
  const paths = Array.isArray(failure.body.paths) ? failure.body.paths.map(String) : [];
  return { code: failure.code, message: `${failure.message}${reason}`, paths };
}

export function ReviewPanel({
  task,
  attempt,
  onFollowUp,
}: {
  task: Task;
  attempt: Attempt;
  onFollowUp: (prompt: string) => Promise<void>;
}) {
  const diff = useLoad(
    () => api<TaskDiff>('GET', `/tasks/${task.id}/diff?attempt_id=${attempt.id}`),
    [task.id, attempt.id, attempt.state],
  );
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const opened = useMemo(() => initiallyOpen(diff.data?.files ?? []), [diff.data]);
  const [comments, setComments] = useState<LineComment[]>([]);
  const [strategy, setStrategy] = useState<(typeof strategies)[number]>('merge');
  const [outcome, setOutcome] = useState<{ ok?: string; url?: string; refused?: Refusal }>({});

  const saved = comments.filter((comment) => comment.body.trim() !== '');
  const change = (key: string, update: (comment: LineComment) => LineComment | undefined) =>
    setComments((all) =>
      all.flatMap((comment) => {
        if (commentKey(comment.path, comment) !== key) return [comment];
        const changed = update(comment);
        return changed ? [changed] : [];
      }),
    );
  // A line's number opens its comment: the one it has, or a new one.
  const openComment = (path: string, anchor: LineAnchor) =>
    setComments((all) =>
      all.some((comment) => commentKey(comment.path, comment) === commentKey(path, anchor))
        ? all.map((comment) =>
            commentKey(comment.path, comment) === commentKey(path, anchor)
              ? { ...comment, editing: true }
              : comment,
          )
        : [...all, { ...anchor, path, body: '', editing: true }],
    );
  const lineNotes = (path: string): LineNotes => {
    const notes = new Map<string, ReactNode>();
    for (const comment of comments) {
      if (comment.path !== path) continue;
      const key = commentKey(path, comment);
      notes.set(
        anchorKey(comment.side, comment.line),
        <LineCommentBox
          key={`${key}:${comment.editing}`}
          comment={comment}
          onSave={(body) => change(key, (current) => ({ ...current, body: body.trim(), editing: false }))}
          // Cancelling a comment never saved drops it.
          onCancel={() =>
            change(key, (current) => (current.body === '' ? undefined : { ...current, editing: false }))
          }
          onEdit={() => change(key, (current) => ({ ...current, editing: true }))}
          onDelete={() => change(key, () => undefined)}
        />,
      );
    }
    return { notes, onLine: (anchor) => openComment(path, anchor) };
  };
  const sendComments = async () => {
    await onFollowUp(followUpPrompt(saved));
    setComments([]);
  };
  const land = async () => {
    setOutcome({});
    try {
      const landed = await api<{ commit: string }>('POST', `/tasks/${task.id}/land`, {
        strategy,
        attempt_id: attempt.id,
      });
      setOutcome({ ok: `Landed on ${attempt.base_branch} as ${landed.commit}` });
    } catch (failure) {
      setOutcome({ refused: refusal(failure) });
    }
  };
  const pullRequest = async () => {
    setOutcome({});
    try {
      const opened = await api<{ url: string }>('POST', `/tasks/${task.id}/pull-request`, {
        attempt_id: attempt.id,
      });
      setOutcome({ ok: 'Pull request opened: ', url: opened.url });
    } catch (failure) {
      setOutcome({ refused: refusal(failure) });
    }
  };

  return (
    <section className="review" aria-label={`Review of "${task.title}"`}>
      <h3>Review</h3>
      {diff.error && <p className="error">{diff.error}</p>}
      {diff.data && (
        <>
          <p className="review-summary">
            <code>{diff.data.branch}</code> against <code>{diff.data.base_branch}</code>:{' '}
            {diff.data.files.length} file{diff.data.files.length === 1 ? '' : 's'},{' '}
            <span className="diff-count-add">+{diff.data.additions}</span>{' '}
            <span className="diff-count-del">−{diff.data.deletions}</span>
            {diff.data.uncommitted && ' (with uncommitted work)'}
          </p>
          <LayoutSwitch name="review-layout" layout={layout} onChange={setLayout} />
          {diff.data.files.map((file) => (
            <FileDiff
              key={file.path}
              file={file}
              layout={layout}
              initiallyOpen={opened.has(file.path)}
              lineNotes={lineNotes(file.path)}
            />
          ))}
          {diff.data.files.length === 0 && (
            <p className="muted">No changes against {diff.data.base_branch}.</p>
          )}
        </>
      )}
      <div className="review-actions">
        <button type="button" onClick={sendComments} disabled={saved.length === 0}>
          Send {saved.length === 0 ? 'comments' : `${saved.length} comment${saved.length === 1 ? '' : 's'}`}{' '}
          as follow-up
        </button>
        <label className="inline-label">
          Strategy
          <select value={strategy} onChange={(event) => setStrategy(event.target.value as typeof strategy)}>
            {strategies.map((item) => (
              <option key={item} value={item}>
                {item}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={land}>
          Land
        </button>
        <button type="button" onClick={pullRequest}>
          Pull request
        </button>
      </div>
      {outcome.ok && (
        <p role="status" className="git-ok">
          {outcome.ok}
          {outcome.url && (
            <a href={outcome.url} target="_blank" rel="noreferrer noopener">
              {outcome.url}
            </a>
          )}
        </p>
      )}
      {outcome.refused && (
        <div role="alert" className="error">
          <p>{outcome.refused.message}</p>
          {outcome.refused.paths.length > 0 && (
            <ul
              aria-label={outcome.refused.code === 'LAND_CONFLICT' ? 'Conflicting paths' : 'Paths in the way'}
              className="git-files-named"
            >
              {outcome.refused.paths.map((path) => (
                <li key={path}>{path}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
