/** Notifications (per user read marks): the newest 50, unread first marked, "mark all read". */
import { Badge, Button, EmptyState } from '@suite/web-ui/kit';
import { BellOff, CheckCheck } from 'lucide-react';
import { get, post } from '../api';
import { useLoad } from '../use-load';
import { formatTime } from './Dashboard';
import { ErrorMessage } from './Messages';

interface Notification {
  id: string;
  created_at: string;
  severity: 'info' | 'warning' | 'critical';
  code: string;
  title: string;
  message: string;
  read: boolean;
}

export function Notifications() {
  const { data, error, reload } = useLoad(() =>
    get<{ items: Notification[]; unread_count: number }>('/notifications?limit=50'),
  );
  const markAll = async () => {
    await post('/notifications/read', { all: true }).catch(() => undefined);
    await reload();
  };

  return (
    <section>
      <div className="screen-head">
        <h1>Notifications</h1>
        <Button icon={<CheckCheck size={16} />} onClick={markAll} disabled={!data || data.unread_count === 0}>
          Mark all read
        </Button>
      </div>
      <ErrorMessage text={error} />
      <p className="lead">{data?.unread_count ?? 0} unread</p>
      {data?.items.length === 0 && (
        <EmptyState icon={<BellOff size={28} />} title="No notification yet.">
          <p>
            Rollbacks, lockout risks, agent problems and updates are announced here (and by e-mail or webhook
            when set up).
          </p>
        </EmptyState>
      )}
      <ul className="notifications">
        {(data?.items ?? []).map((item) => (
          <li key={item.id} className={`severity-${item.severity}${item.read ? '' : ' unread'}`}>
            <strong>
              {item.read ? '' : 'New: '}
              {item.title}
            </strong>{' '}
            <Badge
              tone={item.severity === 'critical' ? 'danger' : item.severity === 'warning' ? 'warn' : 'info'}
            >
              {item.severity}
            </Badge>{' '}
            <span className="meta">
              {item.code}, {formatTime(item.created_at)}
            </span>
            <p>{item.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
