/**
 * The shell: asks `/auth/me` who is signed in (so a reload keeps the session), shows the login
 * or the navigation and the screen of the current path. The draft transaction (actions not yet
 * applied) lives here so it survives moving between the rules, the editor and the review.
 */

import { Link, navigate, usePath } from '@suite/web-ui';
import { Button, Skeleton, ThemeSwitch } from '@suite/web-ui/kit';
import {
  Bell,
  History,
  LayoutDashboard,
  ListChecks,
  LogOut,
  type LucideIcon,
  Puzzle,
  ScrollText,
  Settings as SettingsIcon,
  Shield,
  ShieldBan,
  Users as UsersIcon,
} from 'lucide-react';
import { useEffect, useState } from 'react';
import { get, post, setCsrfToken, whenSignedOut } from './api';
import { Audit } from './screens/Audit';
import { Blocklists } from './screens/Blocklists';
import { Dashboard } from './screens/Dashboard';
import { Extensions } from './screens/Extensions';
import { Login } from './screens/Login';
import { Notifications } from './screens/Notifications';
import { RestorePoints } from './screens/RestorePoints';
import { Review } from './screens/Review';
import { RuleEditor } from './screens/RuleEditor';
import { Rules } from './screens/Rules';
import { Settings } from './screens/Settings';
import { Users } from './screens/Users';
import type { Action, SessionView, User } from './types';

const screens: { path: string; label: string; Icon: LucideIcon; admin?: boolean }[] = [
  { path: '/', label: 'Dashboard', Icon: LayoutDashboard },
  { path: '/rules', label: 'Rules', Icon: ListChecks },
  { path: '/blocklists', label: 'Blocklists', Icon: ShieldBan },
  { path: '/restore-points', label: 'Restore points', Icon: History },
  { path: '/users', label: 'Users', Icon: UsersIcon, admin: true },
  { path: '/audit', label: 'Audit log', Icon: ScrollText, admin: true },
  { path: '/settings', label: 'Settings', Icon: SettingsIcon },
  { path: '/notifications', label: 'Notifications', Icon: Bell },
  { path: '/extensions', label: 'Extensions', Icon: Puzzle },
];

export function App() {
  const [user, setUser] = useState<User | null | undefined>(undefined);
  const [draft, setDraft] = useState<Action[]>([]);
  const path = usePath();
  const sandbox = useSandbox();

  useEffect(() => {
    whenSignedOut(() => setUser(null));
    get<SessionView | { authenticated: false }>('/auth/me').then(
      (me) => {
        setCsrfToken(me.authenticated ? me.csrf_token : null);
        setUser(me.authenticated ? me.user : null);
      },
      () => setUser(null),
    );
  }, []);

  if (user === undefined)
    return (
      <main>
        <Skeleton lines={4} label="Loading firewarden" />
      </main>
    );
  if (user === null)
    return (
      <>
        {sandbox && <SandboxBanner />}
        <Login
          onSignedIn={(session) => {
            setCsrfToken(session.csrf_token);
            setUser(session.user);
          }}
        />
      </>
    );

  const isAdmin = user.role === 'admin';
  const signOut = async () => {
    await post('/auth/logout').catch(() => undefined);
    setCsrfToken(null);
    setUser(null);
    navigate('/');
  };

  return (
    <div className="shell">
      <header className="top">
        <span className="brand">
          <Shield aria-hidden="true" size={22} />
          firewarden
        </span>
        {sandbox && <SandboxBanner />}
        <nav aria-label="Main">
          <ul>
            {screens
              .filter((screen) => isAdmin || !screen.admin)
              .map((screen) => (
                <li key={screen.path}>
                  <Link
                    to={screen.path}
                    active={
                      path === screen.path || (screen.path !== '/' && path.startsWith(`${screen.path}/`))
                    }
                  >
                    <screen.Icon aria-hidden="true" size={16} />
                    {screen.label}
                  </Link>
                </li>
              ))}
          </ul>
        </nav>
        <span className="who">
          <span className="who-name">
            {user.username} ({user.role})
          </span>
          <ThemeSwitch />
          <Button variant="ghost" icon={<LogOut size={16} />} onClick={signOut}>
            <span className="sign-out-label">Sign out</span>
          </Button>
        </span>
      </header>
      <main>{screenFor(path, user, draft, setDraft)}</main>
    </div>
  );
}

function screenFor(path: string, user: User, draft: Action[], setDraft: (actions: Action[]) => void) {
  const isAdmin = user.role === 'admin';
  // One blocklist's own page: the list screen with that list opened.
  if (path.startsWith('/blocklists/'))
    return <Blocklists isAdmin={isAdmin} selected={decodeURIComponent(path.slice('/blocklists/'.length))} />;
  switch (path) {
    case '/':
      return <Dashboard isAdmin={isAdmin} />;
    case '/rules':
      return <Rules isAdmin={isAdmin} draft={draft} setDraft={setDraft} />;
    case '/rules/new':
      return (
        <RuleEditor
          username={user.username}
          onAdd={(rules) => setDraft([...draft, ...rules.map((rule): Action => ({ op: 'add', rule }))])}
        />
      );
    case '/review':
      return <Review draft={draft} setDraft={setDraft} />;
    case '/blocklists':
      return <Blocklists isAdmin={isAdmin} selected={null} />;
    case '/restore-points':
      return <RestorePoints isAdmin={isAdmin} />;
    case '/users':
      return <Users />;
    case '/audit':
      return <Audit />;
    case '/settings':
      return <Settings isAdmin={isAdmin} />;
    case '/notifications':
      return <Notifications />;
    case '/extensions':
      return <Extensions />;
    default:
      return (
        <section>
          <h1>Not found</h1>
          <p>There is no screen at this address.</p>
        </section>
      );
  }
}

/** `serve --sandbox` (GET /api/v1/version says so): every page says the firewall is a throwaway one. */
function useSandbox(): boolean {
  const [sandbox, setSandbox] = useState(false);
  useEffect(() => {
    get<{ sandbox?: boolean }>('/version').then(
      (version) => setSandbox(version.sandbox === true),
      () => undefined,
    );
  }, []);
  return sandbox;
}

function SandboxBanner() {
  return (
    <p className="sandbox" role="status" data-testid="sandbox">
      sandbox: a throwaway network namespace, not this host's firewall
    </p>
  );
}
