/**
 * Platform tokens of the signed-in user: the list (metadata only), a create form (name, scopes,
 * optional lifetime) whose answer shows the secret exactly once with a Copy button, and Revoke
 * behind a confirmation. Tokens are session-only routes, so every role manages its own.
 */
import { errorText, useLoad } from '@suite/web-ui';
import { Badge, Skeleton, useToast } from '@suite/web-ui/kit';
import { type FormEvent, useState } from 'react';
import { api } from '../api.js';
import { ErrorLine } from '../components/Notices.js';
import { type Token, type TokenScope, tokenScopes, when } from '../types-admin.js';

const scopeHelp: Record<TokenScope, string> = {
  read: 'GET on the API',
  write: 'every method on the API',
  events: 'POST /events only',
  mcp: 'the MCP endpoint and tools',
};

export function TokensScreen() {
  const tokens = useLoad(() => api<{ tokens: Token[] }>('GET', '/tokens'), []);
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<TokenScope[]>(['read']);
  const [days, setDays] = useState('');
  const [created, setCreated] = useState<{ name: string; secret: string }>();
  const [confirming, setConfirming] = useState<string>();
  const [message, setMessage] = useState<string>();
  const toast = useToast();

  const toggle = (scope: TokenScope, on: boolean) =>
    setScopes((current) => (on ? [...current, scope] : current.filter((each) => each !== scope)));

  const create = async (event: FormEvent) => {
    event.preventDefault();
    setMessage(undefined);
    try {
      const body = { name, scopes, ...(days === '' ? {} : { expires_in_days: Number(days) }) };
      const answer = await api<Token & { secret: string }>('POST', '/tokens', body);
      setCreated({ name: answer.name, secret: answer.secret });
      setName('');
      setDays('');
      tokens.reload();
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  const copy = async (secret: string) => {
    try {
      await navigator.clipboard.writeText(secret);
      toast.notify({ title: 'Copied to the clipboard.', tone: 'ok' });
    } catch {
      toast.notify({
        title: 'The browser refused the clipboard',
        description: 'Select the secret and copy it by hand.',
        tone: 'warn',
      });
    }
  };

  const revoke = async (token: Token) => {
    setMessage(undefined);
    try {
      await api('POST', `/tokens/${encodeURIComponent(token.id)}/revoke`);
      setConfirming(undefined);
      tokens.reload();
    } catch (failure) {
      setMessage(errorText(failure));
    }
  };

  return (
    <section aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">Tokens</h2>
      <p className="muted">
        A token acts as you (never above your role) on the API routes its scopes allow, sent as{' '}
        <code>Authorization: Bearer …</code>.
      </p>
      <ErrorLine message={message ?? tokens.error} />
      {created && (
        <section className="secret-box" aria-label="New token secret">
          <p>
            <strong>Token “{created.name}” created.</strong> Copy its secret now: you will not see it again.
          </p>
          <code className="secret" data-testid="token-secret">
            {created.secret}
          </code>
          <div className="row">
            <button type="button" onClick={() => copy(created.secret)}>
              Copy secret
            </button>
            <button type="button" onClick={() => setCreated(undefined)}>
              Done, hide it
            </button>
          </div>
        </section>
      )}
      {!tokens.data && !tokens.error && <Skeleton lines={3} label="Loading the tokens" />}
      <ul className="list" aria-label="Tokens">
        {tokens.data?.tokens.map((token) => (
          <li key={token.id} className={token.revoked_at ? 'muted' : undefined}>
            <strong>{token.name}</strong>
            {token.scopes.map((scope) => (
              <Badge key={scope}>{scope}</Badge>
            ))}
            <span className="muted">
              created {when(token.created_at)}, last used {when(token.last_used_at)}
              {token.expires_at && `, expires ${when(token.expires_at)}`}
            </span>
            {token.revoked_at ? (
              <Badge tone="danger">revoked {when(token.revoked_at)}</Badge>
            ) : confirming === token.id ? (
              <fieldset className="confirm" aria-label={`Confirm revoking ${token.name}`}>
                Revoke “{token.name}”? What uses it stops at once.
                <button type="button" className="danger" onClick={() => revoke(token)}>
                  Yes, revoke
                </button>
                <button type="button" onClick={() => setConfirming(undefined)}>
                  Keep it
                </button>
              </fieldset>
            ) : (
              <button
                type="button"
                aria-label={`Revoke ${token.name}`}
                onClick={() => setConfirming(token.id)}
              >
                Revoke
              </button>
            )}
          </li>
        ))}
        {tokens.data?.tokens.length === 0 && <li className="muted">No token yet.</li>}
      </ul>
      <h3>New token</h3>
      <form onSubmit={create} className="inline-form" aria-label="New token">
        <label>
          Token name
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required />
        </label>
        <fieldset className="scopes">
          <legend>Scopes</legend>
          {tokenScopes.map((scope) => (
            <label key={scope} className="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) => toggle(scope, e.target.checked)}
              />
              {scope} <span className="muted">({scopeHelp[scope]})</span>
            </label>
          ))}
        </fieldset>
        <label>
          Expires after (days, empty: never)
          <input
            type="number"
            min={1}
            max={3650}
            value={days}
            onChange={(e) => setDays(e.target.value)}
            inputMode="numeric"
          />
        </label>
        <button type="submit" disabled={scopes.length === 0}>
          Create token
        </button>
      </form>
    </section>
  );
}
