/**
 * @module Notifications: things an operator should see (a login lockout, the agent missing, a
 * broken audit chain; the engine adds apply and rollback events). Read state is kept per user.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { toMillis } from '../store/tables.js';

export type Severity = 'info' | 'warning' | 'critical';

export interface NewNotification {
  severity: Severity;
  code: string;
  title: string;
  message: string;
  details?: Record<string, unknown>;
}

export interface Notification {
  id: number;
  created_at: string;
  severity: Severity;
  code: string;
  title: string;
  message: string;
  details: Record<string, unknown> | null;
  read: boolean;
}

interface NotificationQuery {
  userId: string;
  unreadOnly: boolean;
  limit: number;
  /** Only notifications with a smaller id (the `next_before` of the previous page). */
  before?: number;
}

interface NotificationPage {
  items: Notification[];
  unread_count: number;
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: number | null;
}

export interface NotificationStore {
  add(notification: NewNotification): Promise<number>;
  list(query: NotificationQuery): Promise<NotificationPage>;
  /** Marks the given ids (or every notification when `ids` is 'all') read for one user; returns how many changed. */
  markRead(userId: string, ids: number[] | 'all'): Promise<number>;
}

export function createNotificationStore(db: Kysely<Database>, now: () => number): NotificationStore {
  const unreadCount = async (userId: string) => {
    const row = await db
      .selectFrom('notifications as n')
      .leftJoin('notification_reads as r', (join) =>
        join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', userId),
      )
      .where('r.notification_id', 'is', null)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  };

  return {
    async add(notification) {
      const row = await db
        .insertInto('notifications')
        .values({
          created_at: now(),
          severity: notification.severity,
          code: notification.code,
          title: notification.title,
          message: notification.message,
          details: notification.details ? JSON.stringify(notification.details) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async list({ userId, unreadOnly, limit, before }) {
      let query = db
        .selectFrom('notifications as n')
        .leftJoin('notification_reads as r', (join) =>
          join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', userId),
        )
        .selectAll('n')
        .select('r.read_at')
        .orderBy('n.id', 'desc')
        .limit(limit + 1);
      if (unreadOnly) query = query.where('r.notification_id', 'is', null);
      if (before !== undefined) query = query.where('n.id', '<', before);
      const rows = await query.execute();
      const page = rows.slice(0, limit);
      return {
        items: page.map((row) => ({
          id: row.id,
          created_at: new Date(toMillis(row.created_at)).toISOString(),
          severity: row.severity,
          code: row.code,
          title: row.title,
          message: row.message,
          details: row.details ? (JSON.parse(row.details) as Record<string, unknown>) : null,
          read: row.read_at !== null,
        })),
        unread_count: await unreadCount(userId),
        next_before: rows.length > limit ? page.at(-1)!.id : null,
      };
    },

    async markRead(userId, ids) {
      if (ids !== 'all' && ids.length === 0) return 0;
      const at = now();
      // One INSERT ... SELECT of the unread ones, whatever their number (no bound-parameter limit).
      const result = await db
        .insertInto('notification_reads')
        .columns(['notification_id', 'user_id', 'read_at'])
        .expression((eb) => {
          let unread = eb
            .selectFrom('notifications as n')
            .leftJoin('notification_reads as r', (join) =>
              join.onRef('r.notification_id', '=', 'n.id').on('r.user_id', '=', userId),
            )
            .where('r.notification_id', 'is', null)
            .select((select) => ['n.id', select.val(userId).as('user_id'), select.val(at).as('read_at')]);
          if (ids !== 'all') unread = unread.where('n.id', 'in', ids);
          return unread;
        })
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0);
    },
  };
}
