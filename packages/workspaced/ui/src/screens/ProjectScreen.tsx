/** One project: its name, its overview, and the files, git, terminals and task board tabs. */
import { Link, useLoad } from '@suite/web-ui';
import { Notice, Skeleton } from '@suite/web-ui/kit';
import { api } from '../api.js';
import type { Project } from '../types.js';
import { FilesPanel } from './FilesPanel.js';
import { GitPanel } from './GitPanel.js';
import { ProjectOverview } from './ProjectOverview.js';
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
  if (project.error) return <Notice tone="error" text={project.error} />;
  if (!project.data) return <Skeleton lines={4} label="Loading the project" />;
  return (
    <section>
      <h1>{project.data.name}</h1>
      <ProjectOverview project={project.data} />
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
