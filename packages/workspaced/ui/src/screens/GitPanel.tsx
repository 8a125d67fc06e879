/**
 * The project's git panel: the branch (and how far it is ahead of or behind its upstream), the
 * staged, unstaged and untracked files, the diff of one file (staged or working; the review's
 * highlighted diff component, unified or side by side), stage and
 * unstage, commit with a message, the recent log, the branches (create one, switch to one).
 * A clean work tree shows "No changes" where the file lists go.
 * What a change did is a toast ("Committed 1a2b3c4d5e"); a refusal (nothing staged, a dirty
 * switch, a bad branch name, no permission) stays in the panel with the daemon's own message and
 * the files git named when it names some.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Badge, EmptyState, Skeleton, useToast } from '@suite/web-ui/kit';
import { CircleCheck } from 'lucide-react';
import { type FormEvent, useMemo, useState } from 'react';
import { ApiFailure, api, query } from '../api.js';
import { maxOpenFileLines, patchLineCount } from '../diff/collapse-policy.js';
import { type DiffLayout, FileDiff } from '../diff/FileDiff.js';
import { LayoutSwitch } from '../diff/LayoutSwitch.js';
import { fileFromPatch } from '../diff/patch-file.js';
import './git-panel.css';

interface StatusEntry {
  path: string;
  orig_path?: string;
  kind: 'changed' | 'renamed' | 'copied' | 'unmerged' | 'untracked' | 'ignored';
  index: string;
  worktree: string;
}

interface GitStatus {
  branch: { head: string | null; oid: string | null; upstream: string | null; ahead: number; behind: number };
  entries: StatusEntry[];
  clean: boolean;
}

interface Commit {
  hash: string;
  author_name: string;
  authored_at: string;
  subject: string;
}

interface Branch {
  name: string;
  oid: string;
  current: boolean;
  upstream: string | null;
}

/** The file whose diff is shown, and which side of the index. */
interface Selection {
  path: string;
  staged: boolean;
}

/** What the daemon refused, shown until the next change; what it did is a toast. */
interface Refusal {
  text: string;
  files?: string[];
}

const letters: Record<string, string> = {
  M: 'modified',
  A: 'added',
  D: 'deleted',
  R: 'renamed',
  C: 'copied',
  T: 'type changed',
  U: 'unmerged',
};

/** What the daemon refused, with the files git listed (a dirty switch names them). */
function refusalOf(failure: unknown): Refusal {
  const files =
    failure instanceof ApiFailure && Array.isArray(failure.body.files)
      ? failure.body.files.filter((file): file is string => typeof file === 'string')
      : undefined;
  return { text: errorText(failure), files };
}

export function GitPanel({ projectId }: { projectId: number }) {
  const base = `/projects/${projectId}/git`;
  const status = useLoad(() => api<GitStatus>('GET', `${base}/status`), [projectId]);
  const log = useLoad(
    () => api<{ commits: Commit[] }>('GET', `${base}/log${query({ limit: 20 })}`),
    [projectId],
  );
  const branches = useLoad(() => api<{ branches: Branch[] }>('GET', `${base}/branches`), [projectId]);
  const [selected, setSelected] = useState<Selection>();
  const [refusal, setRefusal] = useState<Refusal>();
  const toast = useToast();
  const [message, setMessage] = useState('');
  const [branchName, setBranchName] = useState('');
  const [busy, setBusy] = useState(false);

  const reloadAll = () => {
    status.reload();
    log.reload();
    branches.reload();
  };
  /** Runs one change; its answer becomes a toast, a refusal the alert; everything is reloaded. */
  const change = async (work: () => Promise<string>) => {
    setBusy(true);
    setRefusal(undefined);
    try {
      toast.notify({ title: await work(), tone: 'ok' });
    } catch (failure) {
      setRefusal(refusalOf(failure));
    } finally {
      setBusy(false);
      reloadAll();
    }
  };

  const stage = (paths: string[], unstage: boolean) =>
    change(async () => {
      await api('POST', `${base}/stage`, { paths, unstage });
      // The diff shown follows the file to the side it moved to.
      if (selected && paths.includes(selected.path)) setSelected({ path: selected.path, staged: !unstage });
      return `${unstage ? 'Unstaged' : 'Staged'} ${paths.join(', ')}`;
    });
  const commit = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const { hash } = await api<{ hash: string }>('POST', `${base}/commit`, { message });
      setMessage('');
      setSelected(undefined);
      return `Committed ${hash.slice(0, 10)}`;
    });
  };
  const createBranch = (event: FormEvent) => {
    event.preventDefault();
    void change(async () => {
      const created = await api<{ name: string }>('POST', `${base}/branch`, { name: branchName });
      setBranchName('');
      return `Created branch ${created.name}`;
    });
  };
  const switchTo = (branch: string) =>
    change(async () => {
      await api('POST', `${base}/switch`, { branch });
      setSelected(undefined);
      return `Switched to ${branch}`;
    });

  const entries = status.data?.entries ?? [];
  const staged = entries.filter(
    (entry) => entry.kind !== 'untracked' && entry.kind !== 'ignored' && entry.index !== '.',
  );
  const unstaged = entries.filter(
    (entry) => entry.kind !== 'untracked' && entry.kind !== 'ignored' && entry.worktree !== '.',
  );
  const untracked = entries.filter((entry) => entry.kind === 'untracked');

  if (status.error && !status.data) return <p className="error">{status.error}</p>;
  if (!status.data) return <Skeleton lines={4} label="Loading the git status" />;
  const branch = status.data.branch;

  return (
    <div className="git-panel">
      <div className="git-side">
        <p className="git-branch">
          <span className="muted">Branch </span>
          <strong data-testid="git-head">
            {branch.head ?? `detached at ${branch.oid?.slice(0, 10) ?? '?'}`}
          </strong>
          {branch.upstream && (
            <span className="muted">
              {' '}
              ↔ {branch.upstream}: {branch.ahead} ahead, {branch.behind} behind
            </span>
          )}
        </p>
        {refusal && (
          <div role="alert" className="error">
            <p>{refusal.text}</p>
            {refusal.files && refusal.files.length > 0 && (
              <ul className="git-files-named">
                {refusal.files.map((file) => (
                  <li key={file}>{file}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        {status.data.clean && (
          // Where the file lists go, so the column does not start with a blank gap.
          <EmptyState icon={<CircleCheck size={24} />} title="No changes">
            <p>Nothing to commit: the work tree is clean.</p>
          </EmptyState>
        )}
        <FileGroup
          title="Staged"
          entries={staged}
          side="index"
          action="Unstage"
          busy={busy}
          selected={selected}
          onSelect={(path) => setSelected({ path, staged: true })}
          onAction={(path) => stage([path], true)}
        />
        <FileGroup
          title="Unstaged"
          entries={unstaged}
          side="worktree"
          action="Stage"
          busy={busy}
          selected={selected}
          onSelect={(path) => setSelected({ path, staged: false })}
          onAction={(path) => stage([path], false)}
        />
        <FileGroup
          title="Untracked"
          entries={untracked}
          side="worktree"
          action="Stage"
          busy={busy}
          selected={undefined}
          onAction={(path) => stage([path], false)}
        />
        <form onSubmit={commit} className="git-commit">
          <label>
            Commit message
            <textarea
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              rows={3}
              maxLength={10_000}
              required
            />
          </label>
          <button type="submit" disabled={busy}>
            Commit staged changes
          </button>
        </form>
      </div>
      <div className="git-main">
        {selected ? (
          <DiffView base={base} selection={selected} generation={status.data} />
        ) : (
          // With no changes there is no file to choose: the branches move up instead.
          !status.data.clean && <p className="muted">Choose a changed file to see its diff.</p>
        )}
        <section aria-label="Branches" className="git-section">
          <h2>Branches</h2>
          {branches.error && <p className="error">{branches.error}</p>}
          <ul className="list">
            {branches.data?.branches.map((item) => (
              <li key={item.name}>
                <span className="git-ref">{item.name}</span>
                {item.current ? (
                  <Badge tone="info">current</Badge>
                ) : (
                  <button type="button" disabled={busy} onClick={() => switchTo(item.name)}>
                    Switch to {item.name}
                  </button>
                )}
              </li>
            ))}
          </ul>
          <form onSubmit={createBranch} className="inline-form">
            <label>
              New branch
              <input
                value={branchName}
                onChange={(e) => setBranchName(e.target.value)}
                maxLength={256}
                required
              />
            </label>
            <button type="submit" disabled={busy}>
              Create branch
            </button>
          </form>
        </section>
        <section aria-label="Recent commits" className="git-section">
          <h2>Recent commits</h2>
          {log.error && <p className="error">{log.error}</p>}
          {log.data?.commits.length === 0 && <p className="muted">No commits yet.</p>}
          <ol className="list git-log">
            {log.data?.commits.map((item) => (
              <li key={item.hash}>
                <code className="git-ref">{item.hash.slice(0, 10)}</code>
                <span className="git-subject">{item.subject}</span>
                <span className="muted">
                  {item.author_name}, {new Date(item.authored_at).toLocaleString()}
                </span>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}

function FileGroup(props: {
  title: string;
  entries: StatusEntry[];
  side: 'index' | 'worktree';
  action: 'Stage' | 'Unstage';
  busy: boolean;
  selected: Selection | undefined;
  /** Absent for untracked files: git has no diff for them until they are staged. */
  onSelect?: (path: string) => void;
  onAction: (path: string) => void;
}) {
  if (props.entries.length === 0) return null;
  const staged = props.action === 'Unstage';
  return (
    <section aria-label={props.title} className="git-section">
      <h2>
        {props.title} <Badge>{props.entries.length}</Badge>
      </h2>
      <ul className="list">
        {props.entries.map((entry) => {
          const letter = props.side === 'index' ? entry.index : entry.worktree;
          const state = entry.kind === 'untracked' ? 'new' : (letters[letter] ?? letter);
          const current = props.selected?.path === entry.path && props.selected.staged === staged;
          return (
            <li key={entry.path} className={current ? 'git-selected' : undefined}>
              {props.onSelect ? (
                <button
                  type="button"
                  className="link git-path"
                  aria-pressed={current}
                  onClick={() => props.onSelect?.(entry.path)}
                >
                  {entry.path}
                </button>
              ) : (
                <span className="git-path">{entry.path}</span>
              )}
              <span className="muted">{state}</span>
              <button
                type="button"
                disabled={props.busy}
                aria-label={`${props.action} ${entry.path}`}
                onClick={() => props.onAction(entry.path)}
              >
                {props.action}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/** The diff of one file, reloaded whenever the status was (`generation`). */
function DiffView({
  base,
  selection,
  generation,
}: {
  base: string;
  selection: Selection;
  generation: unknown;
}) {
  const diff = useLoad(
    () =>
      api<{ diff: string; truncated: boolean }>(
        'GET',
        `${base}/diff${query({ path: selection.path, staged: String(selection.staged) })}`,
      ),
    [base, selection.path, selection.staged, generation],
  );
  const [layout, setLayout] = useState<DiffLayout>('unified');
  const file = useMemo(
    () => (diff.data && diff.data.diff !== '' ? fileFromPatch(selection.path, diff.data.diff) : undefined),
    [diff.data, selection.path],
  );
  return (
    <section aria-label="Diff" className="git-section">
      <h2>
        {selection.staged ? 'Staged' : 'Working'} diff of <span className="git-path">{selection.path}</span>
      </h2>
      {diff.error && <p className="error">{diff.error}</p>}
      {diff.data && !file && <p className="muted">No differences on this side.</p>}
      {file && (
        <>
          <LayoutSwitch name="git-diff-layout" layout={layout} onChange={setLayout} />
          <FileDiff
            key={selection.path}
            file={file}
            layout={layout}
            initiallyOpen={patchLineCount(file) <= maxOpenFileLines}
          />
        </>
      )}
      {diff.data?.truncated && <p className="muted">The diff is too long and was cut.</p>}
    </section>
  );
}
