/** The projects the user may see, and a form to add one (a folder on the daemon's machine). */
import { errorText, Link, useLoad } from '@suite/web-ui';
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import type { Project } from '../types.js';

export function ProjectsScreen() {
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [name, setName] = useState('');
  const [folder, setFolder] = useState('');
  const [error, setError] = useState<string>();

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await api('POST', '/projects', { name, path: folder });
      setName('');
      setFolder('');
      projects.reload();
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <section>
      <h1>Projects</h1>
      {projects.error && <p className="error">{projects.error}</p>}
      <ul className="list" aria-label="Projects">
        {projects.data?.projects.map((project) => (
          <li key={project.id}>
            <Link to={`/projects/${project.id}/files`}>{project.name}</Link>
            <span className="muted"> {project.path}</span> <span className="badge">{project.role}</span>
          </li>
        ))}
        {projects.data?.projects.length === 0 && <li className="muted">No project yet.</li>}
      </ul>
      <h2>Add a project</h2>
      <form onSubmit={create} className="inline-form">
        <label>
          Name
          <input value={name} onChange={(e) => setName(e.target.value)} required />
        </label>
        <label>
          Folder (absolute path)
          <input
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            placeholder="/home/me/code/app"
            required
          />
        </label>
        <button type="submit">Add project</button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
