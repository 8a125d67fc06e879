/**
 * The actions on one account (admin): disable or enable, change the role, set a password, end its
 * sessions. Every refusal (the last admin, a short password) shows the API's message and code.
 */
import { Button } from '@suite/web-ui/kit';
import { type FormEvent, useState } from 'react';
import { describeError, patch, post } from '../api';
import type { User } from '../types';
import { StatusMessage } from './Messages';

export function UserActions({ user, onChange }: { user: User; onChange: () => Promise<void> }) {
  const [message, setMessage] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const name = user.username;

  const run = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setMessage(done);
    } catch (failure) {
      setMessage(describeError(failure));
    }
    await onChange();
  };

  const setNewPassword = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await post(`/users/${user.id}/password`, { password });
      setPassword('');
    }, `Password of ${name} changed; their other sessions ended.`);
  };

  return (
    <div className="user-actions">
      <Button
        onClick={() =>
          run(
            () => patch(`/users/${user.id}`, { disabled: !user.disabled }),
            user.disabled ? `${name} enabled.` : `${name} disabled; their sessions ended.`,
          )
        }
      >
        {user.disabled ? `Enable ${name}` : `Disable ${name}`}
      </Button>
      <label htmlFor={`role-${user.id}`}>Role of {name}</label>
      <select
        id={`role-${user.id}`}
        value={user.role}
        onChange={(event) =>
          run(
            () => patch(`/users/${user.id}`, { role: event.target.value }),
            `${name} is now ${event.target.value}.`,
          )
        }
      >
        <option value="viewer">viewer</option>
        <option value="admin">admin</option>
      </select>
      <Button
        onClick={() => run(() => post(`/users/${user.id}/sessions/revoke`), `Sessions of ${name} ended.`)}
      >
        End sessions of {name}
      </Button>
      <form onSubmit={setNewPassword}>
        <label htmlFor={`password-${user.id}`}>New password for {name}</label>
        <input
          id={`password-${user.id}`}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        <Button type="submit">Set password of {name}</Button>
      </form>
      <StatusMessage text={message} />
    </div>
  );
}
