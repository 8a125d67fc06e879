/**
 * The shell: first-owner setup or sign-in until there is a session, then the navigation and the
 * screen the path names (`/`, `/projects/{id}/{files|git|terminals|tasks}`, `/workflows`,
 * `/attention`).
 */
import { Link, usePath } from '@suite/web-ui';
import { Button, Skeleton, ThemeSwitch } from '@suite/web-ui/kit';
import {
  BellRing,
  Bot,
  FolderGit2,
  LogOut,
  type LucideIcon,
  Network,
  Server,
  Shield,
  SquareTerminal,
  Workflow,
} from 'lucide-react';
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

/** The main menu: each entry's path and whether the current path is its screen. */
const menu: { to: string; label: string; Icon: LucideIcon; current: (path: string) => boolean }[] = [
  {
    to: '/',
    label: 'Projects',
    Icon: FolderGit2,
    current: (path) => path === '/' || projectPath(path) !== null,
  },
  { to: '/workflows', label: 'Workflows', Icon: Workflow, current: (path) => path === '/workflows' },
  { to: '/attention', label: 'Attention', Icon: BellRing, current: (path) => path === '/attention' },
  { to: '/agents', label: 'Agents', Icon: Bot, current: (path) => path === '/agents' },
  { to: '/nodes', label: 'Nodes', Icon: Network, current: (path) => path === '/nodes' },
  { to: '/services', label: 'Services', Icon: Server, current: (path) => path === '/services' },
  { to: '/admin', label: 'Admin', Icon: Shield, current: (path) => adminTab(path) !== null },
];

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

  if (session.state === 'loading')
    return (
      <main>
        <Skeleton lines={4} label="Loading workspaced" />
      </main>
    );
  if (session.state === 'setup')
    return (
      <SignInScreen
        setup={{ tokenRequired: session.tokenRequired, token: setupToken }}
        onSignedIn={signedIn}
      />
    );
  if (session.state !== 'in') return <SignInScreen onSignedIn={signedIn} />;

  const projectMatch = projectPath(path);
  return (
    <div className="shell">
      <header className="topbar">
        <span className="brand">
          <SquareTerminal aria-hidden="true" size={22} />
          workspaced
        </span>
        <nav aria-label="Main">
          <ul>
            {menu.map(({ to, label, Icon, current }) => (
              <li key={to}>
                <Link to={to} active={current(path)}>
                  <Icon aria-hidden="true" size={16} />
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          <BrowserNotifications userId={session.user.id} path={path} />
          <span className="who-name">{session.user.username}</span>
          <ThemeSwitch />
          <Button variant="ghost" icon={<LogOut size={16} />} onClick={signOut}>
            <span className="header-label">Sign out</span>
          </Button>
        </span>
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

/** A project's path: its id and tab (absent on the project's own path), or null. */
function projectPath(path: string): RegExpExecArray | null {
  return /^\/projects\/(\d+)(?:\/(files|git|terminals|tasks))?$/.exec(path);
}

/** The CSRF token goes with every later mutation. */
function startSession(answer: SessionAnswer): Session {
  setCsrfToken(answer.csrf);
  return { state: 'in', user: answer.user, permissions: new Set(answer.permissions) };
}
