/** The projects the user may see, and a form to add one (a folder on the daemon's machine). */
import { errorText, Link, useLoad } from '@suite/web-ui';
import { Badge, Button, EmptyState, Notice, Skeleton } from '@suite/web-ui/kit';
import { FolderGit2 } from 'lucide-react';
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
      <Notice tone="error" text={projects.error} />
      {!projects.data && !projects.error && <Skeleton lines={3} label="Loading the projects" />}
      {projects.data?.projects.length === 0 ? (
        <EmptyState icon={<FolderGit2 size={28} />} title="No project yet">
          <p>Add one below: a name and the absolute path of a folder (a git repository) on this machine.</p>
        </EmptyState>
      ) : (
        <ul className="list" aria-label="Projects">
          {projects.data?.projects.map((project) => (
            <li key={project.id}>
              <Link to={`/projects/${project.id}/files`}>{project.name}</Link>
              <span className="muted"> {project.path}</span> <Badge>{project.role}</Badge>
            </li>
          ))}
        </ul>
      )}
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
        <Button type="submit" variant="primary">
          Add project
        </Button>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
      </form>
    </section>
  );
}
