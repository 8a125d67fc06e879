/**
 * Users (admin): the list with each account's actions (disable/enable, role, password, end
 * sessions) and a form to create one; validation errors come from the API.
 */
import { type FormEvent, useState } from 'react';
import { describeError, get, post } from '../api';
import type { User } from '../types';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { DataTable } from './DataTable';
import { ErrorMessage, StatusMessage } from './Messages';
import { UserActions } from './UserActions';

export function Users() {
  const { data, error, reload } = useLoad(() => get<{ users: User[]; total: number }>('/users?limit=1000'));
  const [form, setForm] = useState({ username: '', password: '', role: 'viewer' });
  const [message, setMessage] = useState<string | null>(null);

  const create = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await post('/users', form);
      setMessage(`User ${form.username} created.`);
      setForm({ username: '', password: '', role: 'viewer' });
    } catch (failure) {
      setMessage(describeError(failure));
    }
    await reload();
  };

  return (
    <section>
      <h1>Users</h1>
      <ErrorMessage text={error} />
      <DataTable
        caption={`${data?.total ?? 0} users`}
        headers={['Username', 'Display name', 'Role', 'Disabled', 'Created', 'Actions']}
      >
        {(data?.users ?? []).map((user) => (
          <tr key={user.id}>
            <td>{user.username}</td>
            <td>{user.display_name ?? ''}</td>
            <td>{user.role}</td>
            <td>{user.disabled ? 'yes' : 'no'}</td>
            <td>{formatTime(user.created_at)}</td>
            <td>
              <UserActions user={user} onChange={reload} />
            </td>
          </tr>
        ))}
      </DataTable>
      <form onSubmit={create} className="editor">
        <h2>New user</h2>
        <label htmlFor="new-username">Username</label>
        <input
          id="new-username"
          value={form.username}
          onChange={(event) => setForm({ ...form, username: event.target.value })}
          required
        />
        <label htmlFor="new-password">Password (12 characters or more)</label>
        <input
          id="new-password"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(event) => setForm({ ...form, password: event.target.value })}
          required
        />
        <label htmlFor="new-role">Role</label>
        <select
          id="new-role"
          value={form.role}
          onChange={(event) => setForm({ ...form, role: event.target.value })}
        >
          <option value="viewer">viewer</option>
          <option value="admin">admin</option>
        </select>
        <StatusMessage text={message} />
        <button type="submit">Create user</button>
      </form>
    </section>
  );
}
