/** First-owner setup (while the daemon has no user) or sign-in. */
import { type FormEvent, useState } from 'react';
import { api, messageOf } from '../api.js';
import type { SessionAnswer } from '../types.js';

export function SignInScreen({
  setup,
  onSignedIn,
}: {
  setup: boolean;
  onSignedIn: (answer: SessionAnswer) => void;
}) {
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const body = setup
        ? { username, password, ...(displayName === '' ? {} : { display_name: displayName }) }
        : { username, password };
      onSignedIn(await api<SessionAnswer>('POST', setup ? '/setup' : '/login', body));
    } catch (failure) {
      setError(messageOf(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>{setup ? 'Create the first owner' : 'Sign in to workspaced'}</h1>
      {setup && <p>This daemon has no user yet. The account you create here owns it.</p>}
      <form onSubmit={submit}>
        <label>
          Username
          <input
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            autoComplete="username"
            required
          />
        </label>
        {setup && (
          <label>
            Display name
            <input value={displayName} onChange={(e) => setDisplayName(e.target.value)} autoComplete="name" />
          </label>
        )}
        <label>
          Password
          <input
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            autoComplete={setup ? 'new-password' : 'current-password'}
            minLength={setup ? 12 : undefined}
            required
          />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy}>
          {setup ? 'Create owner' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
