/**
 * First-owner setup (while the daemon has no user) or sign-in. Setup asks for the one-time setup
 * token unless the daemon runs with `--setup-open`; the setup URL fills it in.
 */
import { errorText } from '@suite/web-ui';
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import type { SessionAnswer } from '../types.js';

export function SignInScreen({
  setup,
  onSignedIn,
}: {
  /** Present while the daemon has no owner. */
  setup?: { tokenRequired: boolean; token: string };
  onSignedIn: (answer: SessionAnswer) => void;
}) {
  const [setupToken, setSetupToken] = useState(setup?.token ?? '');
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
        ? {
            username,
            password,
            ...(displayName === '' ? {} : { display_name: displayName }),
            ...(setup.tokenRequired ? { setup_token: setupToken.trim() } : {}),
          }
        : { username, password };
      onSignedIn(await api<SessionAnswer>('POST', setup ? '/setup' : '/login', body));
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="sign-in">
      <h1>{setup ? 'Create the first owner' : 'Sign in to workspaced'}</h1>
      {setup && <p>This daemon has no user yet. The account you create here owns it.</p>}
      <form onSubmit={submit}>
        {setup?.tokenRequired && (
          <label>
            Setup token
            <input
              type="password"
              value={setupToken}
              onChange={(e) => setSetupToken(e.target.value)}
              autoComplete="off"
              aria-describedby="setup-token-hint"
              required
            />
            <small id="setup-token-hint">
              In the setup link the daemon printed when it started, and in the file setup-token of its data
              directory.
            </small>
          </label>
        )}
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
        <button type="submit" className="kit-button kit-button-primary" disabled={busy}>
          {setup ? 'Create owner' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
