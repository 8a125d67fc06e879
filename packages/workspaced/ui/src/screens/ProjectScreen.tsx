/** One project: its name and the files, git, terminals and task board tabs. */
import { Link, useLoad } from '@suite/web-ui';
import { api } from '../api.js';
import type { Project } from '../types.js';
import { FilesPanel } from './FilesPanel.js';
import { GitPanel } from './GitPanel.js';
import { TaskBoard } from './TaskBoard.js';
import { TerminalsPanel } from './TerminalsPanel.js';

const tabs = [
  ['files', 'Files'],
  ['git', 'Git'],
  ['terminals', 'Terminals'],
  ['tasks', 'Tasks'],
] as const;

export function ProjectScreen({ projectId, tab }: { projectId: number; tab: string }) {
  const project = useLoad(() => api<Project>('GET', `/projects/${projectId}`), [projectId]);
  if (project.error) return <p className="error">{project.error}</p>;
  if (!project.data) return <p className="loading">Loading…</p>;
  return (
    <section>
      <h1>{project.data.name}</h1>
      <nav aria-label="Project" className="tabs">
        {tabs.map(([key, label]) => (
          <Link key={key} to={`/projects/${projectId}/${key}`} active={tab === key}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'files' && <FilesPanel projectId={projectId} />}
      {tab === 'git' && <GitPanel projectId={projectId} />}
      {tab === 'terminals' && <TerminalsPanel projectId={projectId} />}
      {tab === 'tasks' && <TaskBoard projectId={projectId} />}
    </section>
  );
}
