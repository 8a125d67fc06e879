/**
 * The project's file tree, one folder at a time, and a text editor for one file: read, edit,
 * save (the daemon writes atomically). A binary file is shown as such, not as mojibake.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { type FormEvent, useState } from 'react';
import { api, query } from '../api.js';
import type { FileEntry } from '../types.js';

interface OpenFile {
  path: string;
  content: string;
  binary: boolean;
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
  const [status, setStatus] = useState<string>();
  const [newName, setNewName] = useState('');

  const openFile = async (path: string) => {
    setStatus(undefined);
    try {
      const file = await api<{ content: string; encoding: string }>(
        'GET',
        `/projects/${projectId}/files/read${query({ path })}`,
      );
      setOpen({
        path,
        content: file.encoding === 'utf8' ? file.content : '',
        binary: file.encoding !== 'utf8',
      });
    } catch (failure) {
      setStatus(errorText(failure));
    }
  };
  const save = async (file: OpenFile) => {
    try {
      await api('POST', `/projects/${projectId}/files/write`, { path: file.path, content: file.content });
      setStatus(`Saved ${file.path}`);
      listing.reload();
    } catch (failure) {
      setStatus(errorText(failure));
    }
  };
  const createFile = async (event: FormEvent) => {
    event.preventDefault();
    const file = { path: join(folder, newName), content: '', binary: false };
    await save(file);
    setNewName('');
    setOpen(file);
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
        {status && <p role="status">{status}</p>}
        {open ? (
          open.binary ? (
            <p>{open.path} is a binary file.</p>
          ) : (
            <>
              <label className="editor-label">
                {open.path}
                <textarea
                  value={open.content}
                  spellCheck={false}
                  onChange={(e) => setOpen({ ...open, content: e.target.value })}
                />
              </label>
              <button type="button" onClick={() => save(open)}>
                Save
              </button>
            </>
          )
        ) : (
          <p className="muted">Choose a file.</p>
        )}
      </div>
    </div>
  );
}
