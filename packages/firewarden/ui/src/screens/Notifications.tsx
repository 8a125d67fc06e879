/** Notifications (per user read marks): the newest 50, unread first marked, "mark all read". */
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
      <h1>Notifications</h1>
      <ErrorMessage text={error} />
      <p>
        {data?.unread_count ?? 0} unread{' '}
        <button type="button" onClick={markAll} disabled={!data || data.unread_count === 0}>
          Mark all read
        </button>
      </p>
      <ul className="notifications">
        {(data?.items ?? []).map((item) => (
          <li key={item.id} className={`severity-${item.severity}${item.read ? '' : ' unread'}`}>
            <strong>
              {item.read ? '' : 'New: '}
              {item.title}
            </strong>{' '}
            <span className="meta">
              {item.severity}, {item.code}, {formatTime(item.created_at)}
            </span>
            <p>{item.message}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
