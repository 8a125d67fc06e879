import type { Project } from '../types.js';

/** A labelled select over plain names (roles, project roles), each shown as itself. */
export function SelectField(props: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (value: string) => void;
  inline?: boolean;
}) {
  return (
    <label className={props.inline ? 'inline-label' : undefined}>
      {props.label}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A labelled select of projects by name (value: the id); `none` names an empty first choice. */
export function ProjectField(props: {
  label: string;
  value: string;
  projects: readonly Project[];
  onChange: (value: string) => void;
  none?: string;
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={(event) => props.onChange(event.target.value)}>
        {props.none !== undefined && <option value="">{props.none}</option>}
        {props.projects.map((project) => (
          <option key={project.id} value={project.id}>
            {project.name}
          </option>
        ))}
      </select>
    </label>
  );
}
