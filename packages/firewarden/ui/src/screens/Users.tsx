/**
 * Users (admin): the list with each account's actions (disable/enable, role, password, end
 * sessions) and a form to create one; validation errors come from the API.
 */
import { Badge, Button, type ColumnDef, DataTable, SelectField, TextField } from '@suite/web-ui/kit';
import { UserPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { describeError, get, post } from '../api';
import type { User } from '../types';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
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
      <div className="screen-head">
        <h1>Users</h1>
      </div>
      <ErrorMessage text={error} />
      <DataTable
        caption={`${data?.total ?? 0} users`}
        columns={columns(reload)}
        rows={data?.users ?? []}
        rowId={(user) => user.id}
        pageSize={25}
      />
      <form onSubmit={create} className="editor">
        <h2 className="full">New user</h2>
        <TextField
          id="new-username"
          label="Username"
          value={form.username}
          onChange={(event) => setForm({ ...form, username: event.target.value })}
          required
        />
        <TextField
          id="new-password"
          label="Password (12 characters or more)"
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(event) => setForm({ ...form, password: event.target.value })}
          required
        />
        <SelectField
          id="new-role"
          label="Role"
          value={form.role}
          onChange={(event) => setForm({ ...form, role: event.target.value })}
          options={['viewer', 'admin']}
        />
        <StatusMessage text={message} />
        <div className="kit-actions">
          <Button type="submit" variant="primary" icon={<UserPlus size={16} />}>
            Create user
          </Button>
        </div>
      </form>
    </section>
  );
}

function columns(reload: () => Promise<void>): ColumnDef<User>[] {
  return [
    { accessorKey: 'username', header: 'Username' },
    { id: 'display_name', header: 'Display name', accessorFn: (user) => user.display_name ?? '' },
    {
      accessorKey: 'role',
      header: 'Role',
      cell: ({ row }) => (
        <Badge tone={row.original.role === 'admin' ? 'info' : 'neutral'}>{row.original.role}</Badge>
      ),
    },
    { id: 'disabled', header: 'Disabled', accessorFn: (user) => (user.disabled ? 'yes' : 'no') },
    { accessorKey: 'created_at', header: 'Created', cell: ({ row }) => formatTime(row.original.created_at) },
    {
      id: 'actions',
      header: 'Actions',
      enableSorting: false,
      cell: ({ row }) => <UserActions user={row.original} onChange={reload} />,
    },
  ];
}
