/**
 * The project's file tree, one folder at a time, and a code editor for one file: read, edit,
 * save (the daemon writes atomically). A binary file is shown as such, not as mojibake. Opening
 * another file while the open one has unsaved changes asks first.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Skeleton, useToast } from '@suite/web-ui/kit';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { api, query } from '../api.js';
import { ErrorLine } from '../components/Notices.js';
import type { FileEntry } from '../types.js';

// CodeMirror is loaded when a file is first opened, not with the page.
const CodeEditor = lazy(() => import('../editor/CodeEditor.js'));

interface OpenFile {
  path: string;
  content: string;
  binary: boolean;
  /** Counts the openings: opening the file again starts a fresh editor from what was read. */
  opening: number;
}

const join = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);

export function FilesPanel({ projectId }: { projectId: number }) {
  const [folder, setFolder] = useState('');
  const listing = useLoad(
    () =>
      api<{ entries: FileEntry[]; truncated: boolean }>(
        'GET',
        `/projects/${projectId}/files${query({ path: folder })}`,
      ),
    [projectId, folder],
  );
  const [open, setOpen] = useState<OpenFile>();
  const [error, setError] = useState<string>();
  const toast = useToast();
  const [newName, setNewName] = useState('');
  const [dirty, setDirty] = useState(false);

  const openFile = async (path: string) => {
    if (dirty && open && !window.confirm(`Discard the unsaved changes to ${open.path}?`)) return;
    setError(undefined);
    try {
      const file = await api<{ content: string; encoding: string }>(
        'GET',
        `/projects/${projectId}/files/read${query({ path })}`,
      );
      setDirty(false);
      setOpen((previous) => ({
        path,
        content: file.encoding === 'utf8' ? file.content : '',
        binary: file.encoding !== 'utf8',
        opening: (previous?.opening ?? 0) + 1,
      }));
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const save = async (path: string, content: string): Promise<boolean> => {
    try {
      await api('POST', `/projects/${projectId}/files/write`, { path, content });
      setError(undefined);
      toast.notify({ title: `Saved ${path}`, tone: 'ok' });
      listing.reload();
      return true;
    } catch (failure) {
      setError(errorText(failure));
      return false;
    }
  };
  const createFile = async (event: FormEvent) => {
    event.preventDefault();
    if (dirty && open && !window.confirm(`Discard the unsaved changes to ${open.path}?`)) return;
    const path = join(folder, newName);
    if (!(await save(path, ''))) return;
    setNewName('');
    setOpen((previous) => ({ path, content: '', binary: false, opening: (previous?.opening ?? 0) + 1 }));
  };
  const up = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';

  return (
    <div className="split">
      <div className="file-tree">
        <p className="crumb">/{folder}</p>
        {listing.error && <p className="error">{listing.error}</p>}
        <ul className="list" aria-label="Files">
          {folder !== '' && (
            <li>
              <button type="button" className="link" onClick={() => setFolder(up)}>
                ..
              </button>
            </li>
          )}
          {listing.data?.entries.map((entry) => (
            <li key={entry.name}>
              <button
                type="button"
                className="link"
                onClick={() =>
                  entry.type === 'directory'
                    ? setFolder(join(folder, entry.name))
                    : openFile(join(folder, entry.name))
                }
              >
                {entry.type === 'directory' ? `${entry.name}/` : entry.name}
              </button>
            </li>
          ))}
        </ul>
        <form onSubmit={createFile} className="inline-form">
          <label>
            New file
            <input value={newName} onChange={(e) => setNewName(e.target.value)} required />
          </label>
          <button type="submit">Create</button>
        </form>
      </div>
      <div className="editor">
        <ErrorLine message={error} />
        {open ? (
          open.binary ? (
            <p>{open.path} is a binary file.</p>
          ) : (
            <Suspense fallback={<Skeleton lines={3} label="Loading the editor" />}>
              <CodeEditor
                key={open.opening}
                path={open.path}
                content={open.content}
                onSave={(content) => save(open.path, content)}
                onDirtyChange={setDirty}
              />
            </Suspense>
          )
        ) : (
          <p className="muted">Choose a file.</p>
        )}
      </div>
    </div>
  );
}
