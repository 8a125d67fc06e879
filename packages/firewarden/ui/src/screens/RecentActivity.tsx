/**
 * The dashboard's two feeds: alerts (unread warning and critical notifications) and, for admins,
 * the newest audit entries. Neither needs the agent.
 */
import { Link } from '@suite/web-ui';
import { Badge, Card, EmptyState } from '@suite/web-ui/kit';
import { BellRing, CircleCheck, ScrollText } from 'lucide-react';
import { get } from '../api';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { ErrorMessage } from './Messages';

interface Alert {
  id: string;
  created_at: string;
  severity: 'info' | 'warning' | 'critical';
  title: string;
}

interface AuditLine {
  seq: number;
  at: string;
  actor: string | null;
  action: string;
  outcome: string;
}

export function RecentActivity({ isAdmin }: { isAdmin: boolean }) {
  const alerts = useLoad(() => get<{ items: Alert[] }>('/notifications?unread=true&limit=20'));
  const audit = useLoad(
    () => (isAdmin ? get<{ entries: AuditLine[] }>('/audit?limit=5') : Promise.resolve({ entries: [] })),
    [isAdmin],
  );
  const serious = (alerts.data?.items ?? []).filter((item) => item.severity !== 'info').slice(0, 5);

  return (
    <>
      <Card
        className="half"
        title="Alerts"
        icon={<BellRing size={18} />}
        labelledBy="card-alerts"
        action={<Link to="/notifications">All notifications</Link>}
      >
        <ErrorMessage text={alerts.error} />
        {alerts.data &&
          (serious.length === 0 ? (
            <EmptyState icon={<CircleCheck size={24} />} title="No unread warning.">
              <p>Rollbacks, lockout risks and agent problems appear here.</p>
            </EmptyState>
          ) : (
            <ul className="feed">
              {serious.map((item) => (
                <li key={item.id}>
                  <Badge tone={item.severity === 'critical' ? 'danger' : 'warn'}>{item.severity}</Badge>
                  <span>{item.title}</span>
                  <span className="meta">{formatTime(item.created_at)}</span>
                </li>
              ))}
            </ul>
          ))}
      </Card>
      {isAdmin && (
        <Card
          className="half"
          title="Recent audit"
          icon={<ScrollText size={18} />}
          labelledBy="card-audit"
          action={<Link to="/audit">Open the audit log</Link>}
        >
          <ErrorMessage text={audit.error} />
          <ul className="feed">
            {(audit.data?.entries ?? []).map((entry) => (
              <li key={entry.seq}>
                <Badge tone={entry.outcome === 'success' ? 'ok' : 'danger'}>{entry.outcome}</Badge>
                <code>{entry.action}</code>
                <span className="meta">
                  {entry.actor ?? 'anonymous'}, {formatTime(entry.at)}
                </span>
              </li>
            ))}
          </ul>
        </Card>
      )}
    </>
  );
}
