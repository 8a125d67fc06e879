/**
 * The shell: first-owner setup or sign-in until there is a session, then the navigation and the
 * screen the path names (`/`, `/projects/{id}/{files|git|terminals|tasks}`, `/workflows`,
 * `/attention`).
 */
import { Link, usePath } from '@suite/web-ui';
import { useEffect, useState } from 'react';
import { api, setCsrfToken, whenSignedOut } from './api.js';
import { BrowserNotifications } from './components/BrowserNotifications.js';
import { AdminScreen, adminTab } from './screens/AdminScreen.js';
import { AgentsScreen } from './screens/AgentsScreen.js';
import { AttentionScreen } from './screens/AttentionScreen.js';
import { NodesScreen } from './screens/NodesScreen.js';
import { ProjectScreen } from './screens/ProjectScreen.js';
import { ProjectsScreen } from './screens/ProjectsScreen.js';
import { ServicesScreen } from './screens/ServicesScreen.js';
import { SignInScreen } from './screens/SignInScreen.js';
import { WorkflowsScreen } from './screens/WorkflowsScreen.js';
import type { SessionAnswer, User } from './types.js';

type Session =
  | { state: 'loading' }
  | { state: 'setup'; tokenRequired: boolean }
  | { state: 'signed-out' }
  | { state: 'in'; user: User; permissions: ReadonlySet<string> };

/** `setupToken`: the one-time token from the setup URL, if the page was opened with one. */
export function App({ setupToken }: { setupToken: string }) {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const path = usePath();

  useEffect(() => {
    whenSignedOut(() => setSession({ state: 'signed-out' }));
    (async () => {
      const setup = await api<{ setup_pending: boolean; setup_token_required: boolean }>('GET', '/setup');
      if (setup.setup_pending)
        return setSession({ state: 'setup', tokenRequired: setup.setup_token_required });
      try {
        setSession(startSession(await api<SessionAnswer>('GET', '/me')));
      } catch {
        setSession({ state: 'signed-out' });
      }
    })();
  }, []);

  const signedIn = (answer: SessionAnswer) => setSession(startSession(answer));
  const signOut = async () => {
    await api('POST', '/logout').catch(() => undefined);
    setCsrfToken(null);
    setSession({ state: 'signed-out' });
  };

  if (session.state === 'loading') return <p className="loading">Loading…</p>;
  if (session.state === 'setup')
    return (
      <SignInScreen
        setup={{ tokenRequired: session.tokenRequired, token: setupToken }}
        onSignedIn={signedIn}
      />
    );
  if (session.state !== 'in') return <SignInScreen onSignedIn={signedIn} />;

  const projectMatch = /^\/projects\/(\d+)(?:\/(files|git|terminals|tasks))?$/.exec(path);
  return (
    <div className="shell">
      <header className="topbar">
        <nav aria-label="Main">
          <Link to="/" active={path === '/' || projectMatch !== null}>
            Projects
          </Link>
          <Link to="/workflows" active={path === '/workflows'}>
            Workflows
          </Link>
          <Link to="/attention" active={path === '/attention'}>
            Attention
          </Link>
          <Link to="/agents" active={path === '/agents'}>
            Agents
          </Link>
          <Link to="/nodes" active={path === '/nodes'}>
            Nodes
          </Link>
          <Link to="/services" active={path === '/services'}>
            Services
          </Link>
          <Link to="/admin" active={adminTab(path) !== null}>
            Admin
          </Link>
        </nav>
        <BrowserNotifications userId={session.user.id} path={path} />
        <span className="who">{session.user.username}</span>
        <button type="button" onClick={signOut}>
          Sign out
        </button>
      </header>
      <main>
        {projectMatch ? (
          <ProjectScreen projectId={Number(projectMatch[1])} tab={projectMatch[2] ?? 'files'} />
        ) : path === '/workflows' ? (
          <WorkflowsScreen />
        ) : path === '/attention' ? (
          <AttentionScreen />
        ) : path === '/agents' ? (
          <AgentsScreen />
        ) : path === '/nodes' ? (
          <NodesScreen />
        ) : path === '/services' ? (
          <ServicesScreen permissions={session.permissions} />
        ) : adminTab(path) !== null ? (
          <AdminScreen tab={adminTab(path) ?? 'notifications'} user={session.user} />
        ) : (
          <ProjectsScreen />
        )}
      </main>
    </div>
  );
}

/** The CSRF token goes with every later mutation. */
function startSession(answer: SessionAnswer): Session {
  setCsrfToken(answer.csrf);
  return { state: 'in', user: answer.user, permissions: new Set(answer.permissions) };
}
