/** The sign-in form: a real form, so Enter submits and the browser can fill it. */
import { Button, TextField, ThemeSwitch } from '@suite/web-ui/kit';
import { LogIn, Shield } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { describeError, post } from '../api';
import type { SessionView } from '../types';
import { ErrorMessage } from './Messages';

export function Login({ onSignedIn }: { onSignedIn: (session: SessionView) => void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      onSignedIn(await post<SessionView>('/auth/login', { username, password }));
    } catch (failure) {
      setError(describeError(failure));
      setBusy(false);
    }
  };

  return (
    <main className="login">
      <form onSubmit={submit} aria-labelledby="login-title">
        <h1 id="login-title">
          <Shield aria-hidden="true" size={26} />
          Sign in to firewarden
        </h1>
        <TextField
          id="username"
          label="Username"
          autoComplete="username"
          value={username}
          onChange={(event) => setUsername(event.target.value)}
          required
        />
        <TextField
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          required
        />
        <ErrorMessage text={error} />
        <Button type="submit" variant="primary" icon={<LogIn size={16} />} disabled={busy}>
          Sign in
        </Button>
        <ThemeSwitch />
      </form>
    </main>
  );
}
