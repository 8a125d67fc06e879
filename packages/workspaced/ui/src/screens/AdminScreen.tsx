/**
 * Admin: the sub-tabs `/admin/notifications` (the default), `/admin/tokens`, `/admin/users` and
 * `/admin/audit`. Every signed-in user sees the tabs; a tab their role does not allow says so
 * (the daemon's 403 message) instead of showing data.
 */
import { Link } from '@suite/web-ui';
import type { User } from '../types.js';
import './admin.css';
import { AuditScreen } from './AuditScreen.js';
import { NotificationRulesScreen } from './NotificationRulesScreen.js';
import { TokensScreen } from './TokensScreen.js';
import { UsersScreen } from './UsersScreen.js';

const tabs = [
  ['notifications', 'Notification rules'],
  ['tokens', 'Tokens'],
  ['users', 'Users and roles'],
  ['audit', 'Audit'],
] as const;

/** The tab `path` names, or null when it is not an Admin path. */
export function adminTab(path: string): string | null {
  if (path === '/admin' || path === '/admin/') return 'notifications';
  const tab = tabs.find(([key]) => path === `/admin/${key}`);
  return tab ? tab[0] : null;
}

export function AdminScreen({ tab, user }: { tab: string; user: User }) {
  return (
    <section className="admin">
      <h1>Admin</h1>
      <nav aria-label="Admin" className="tabs admin-tabs">
        {tabs.map(([key, label]) => (
          <Link key={key} to={`/admin/${key}`} active={tab === key}>
            {label}
          </Link>
        ))}
      </nav>
      {tab === 'notifications' && <NotificationRulesScreen me={user} />}
      {tab === 'tokens' && <TokensScreen />}
      {tab === 'users' && <UsersScreen me={user} />}
      {tab === 'audit' && <AuditScreen />}
    </section>
  );
}
