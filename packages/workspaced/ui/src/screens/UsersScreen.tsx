/**
 * Users and roles (owners and admins: `users.view` / `users.manage`): the accounts with a role
 * select and Disable/Enable, a form to create one, and the members of each project (add by
 * username, change the project role, remove). Anyone else sees the daemon's 403 message. The
 * daemon refuses what the caller may not do (a role above their own, the last owner), and the
 * screen shows its message.
 */
import { useLoad } from '@suite/web-ui';
import { Badge, Skeleton } from '@suite/web-ui/kit';
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import { useActions, useSubmit } from '../components/actions.js';
import { ErrorLine } from '../components/Notices.js';
import { ProjectField, SelectField } from '../components/SelectField.js';
import type { Project, User } from '../types.js';
import { type Account, type Member, projectRoles, roles, unlessDenied, when } from '../types-admin.js';

const pageSize = 100;

export function UsersScreen({ me }: { me: User }) {
  const [pages, setPages] = useState(1);
  const users = useLoad(
    () =>
      unlessDenied(() => api<{ users: Account[]; total: number }>('GET', `/users?limit=${pageSize * pages}`)),
    [pages],
  );
  const { error, setError, run } = useActions(users.reload);
  const update = (user: Account, patch: { role?: string; disabled?: boolean }, done: string) =>
    run(async () => {
      await api('PATCH', `/users/${encodeURIComponent(user.id)}`, patch);
      return done;
    });

  if (users.data?.denied)
    return (
      <p role="alert" className="error">
        Only owners and admins manage users: {users.data.denied}.
      </p>
    );
  const list = users.data?.value;
  return (
    <section aria-labelledby="users-heading">
      <h2 id="users-heading">Users and roles</h2>
      <ErrorLine message={error ?? users.error} />
      {!users.data && !users.error && <Skeleton lines={3} label="Loading the users" />}
      <ul className="list" aria-label="Users">
        {list?.users.map((user) => (
          <li key={user.id} className={user.disabled ? 'muted' : undefined}>
            <strong>{user.username}</strong>
            {user.display_name && <span>{user.display_name}</span>}
            {user.id === me.id && <Badge tone="info">you</Badge>}
            {user.disabled && <Badge tone="danger">disabled</Badge>}
            <span className="muted">since {when(user.created_at)}</span>
            <span className="row">
              <SelectField
                inline
                label={`Role of ${user.username}`}
                value={user.role}
                options={roles}
                onChange={(role) => update(user, { role }, `${user.username} is now ${role}.`)}
              />
              <button
                type="button"
                aria-label={`${user.disabled ? 'Enable' : 'Disable'} ${user.username}`}
                onClick={() =>
                  update(
                    user,
                    { disabled: !user.disabled },
                    `${user.username} is ${user.disabled ? 'enabled' : 'disabled (signed out everywhere)'}.`,
                  )
                }
              >
                {user.disabled ? 'Enable' : 'Disable'}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {list && list.users.length < list.total && (
        <button type="button" onClick={() => setPages((count) => count + 1)}>
          Show more users ({list.total - list.users.length} more)
        </button>
      )}
      <CreateUser onCreated={(name) => run(async () => `${name} created.`)} onError={setError} />
      <ProjectMembers users={list?.users ?? []} />
    </section>
  );
}

function CreateUser(props: { onCreated: (username: string) => void; onError: (message: string) => void }) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState('developer');

  const { submit } = useSubmit(async () => {
    const body = {
      username,
      password,
      role,
      ...(displayName.trim() === '' ? {} : { display_name: displayName }),
    };
    const user = await api<Account>('POST', '/users', body);
    setUsername('');
    setDisplayName('');
    setPassword('');
    props.onCreated(user.username);
  }, props.onError);

  return (
    <>
      <h3>New user</h3>
      <form onSubmit={submit} className="inline-form" aria-label="New user">
        <label>
          New username
          <input value={username} onChange={(e) => setUsername(e.target.value)} autoComplete="off" required />
        </label>
        <label>
          Display name (optional)
          <input value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
        </label>
        <label>
          Initial password
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete="new-password"
            required
          />
        </label>
        <SelectField label="Role" value={role} options={roles} onChange={setRole} />
        <button type="submit">Create user</button>
      </form>
    </>
  );
}

/** Members of one project at a time; owners and admins reach every project without being members. */
function ProjectMembers({ users }: { users: Account[] }) {
  const projects = useLoad(() => api<{ projects: Project[] }>('GET', '/projects'), []);
  const [chosen, setChosen] = useState('');
  const projectId = chosen !== '' ? chosen : String(projects.data?.projects[0]?.id ?? '');
  const members = useLoad(
    () =>
      projectId === ''
        ? Promise.resolve({ members: [] as Member[] })
        : api<{ members: Member[] }>('GET', `/projects/${projectId}/members`),
    [projectId],
  );
  const [username, setUsername] = useState('');
  const [role, setRole] = useState('developer');
  const { error, run } = useActions(members.reload);
  const setMember = (name: string, memberRole: string) =>
    run(() => api('POST', `/projects/${projectId}/members`, { username: name, role: memberRole }));
  const add = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await api('POST', `/projects/${projectId}/members`, { username, role });
      setUsername('');
    });
  };

  if (projects.data?.projects.length === 0) return null;
  return (
    <section aria-labelledby="members-heading">
      <h3 id="members-heading">Project members</h3>
      <p className="muted">
        Owners and admins reach every project; everyone else only the projects they are a member of, with at
        most their own role.
      </p>
      <ProjectField
        label="Project"
        value={projectId}
        projects={projects.data?.projects ?? []}
        onChange={setChosen}
      />
      <ErrorLine message={error ?? members.error} />
      <ul className="list" aria-label="Project members">
        {members.data?.members.map((member) => {
          const name = member.username ?? member.user_id;
          return (
            <li key={member.user_id}>
              <strong>{name}</strong>
              <SelectField
                inline
                label={`Project role of ${name}`}
                value={member.role}
                options={projectRoles}
                onChange={(memberRole) => setMember(name, memberRole)}
              />
              <button
                type="button"
                onClick={() =>
                  run(() =>
                    api('DELETE', `/projects/${projectId}/members/${encodeURIComponent(member.user_id)}`),
                  )
                }
              >
                Remove {name}
              </button>
            </li>
          );
        })}
        {members.data?.members.length === 0 && <li className="muted">No member yet.</li>}
      </ul>
      <form className="inline-form" aria-label="Add a member" onSubmit={add}>
        <label>
          Member username
          <input value={username} onChange={(e) => setUsername(e.target.value)} list="known-users" required />
          <datalist id="known-users">
            {users.map((user) => (
              <option key={user.id} value={user.username} />
            ))}
          </datalist>
        </label>
        <SelectField label="Project role" value={role} options={projectRoles} onChange={setRole} />
        <button type="submit">Add member</button>
      </form>
    </section>
  );
}
