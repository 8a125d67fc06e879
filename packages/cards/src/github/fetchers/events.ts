/**
 * @module Recent public push, pull request and issue events of a user (REST, ETag-revalidated).
 */
import { z } from 'zod';
import { dataOrCached } from '../conditional.js';
import { type FetchContext, keyPart, MINUTE_MS } from '../context.js';

/** GitHub itself publishes events with 30 s to 6 h of latency; 10 minutes is plenty fresh. */
const EVENTS_TTL_MS = 10 * MINUTE_MS;

const eventSchema = z.object({
  type: z.string(),
  created_at: z.string(),
  repo: z.object({ name: z.string() }),
  payload: z
    .object({
      action: z.string().optional(),
      size: z.number().int().optional(),
      commits: z.array(z.unknown()).optional(),
      ref: z.string().nullable().optional(),
      number: z.number().int().optional(),
      pull_request: z
        .object({ title: z.string().nullable().optional(), merged: z.boolean().optional() })
        .optional(),
      issue: z
        .object({ title: z.string().nullable().optional(), number: z.number().int().optional() })
        .optional(),
    })
    .passthrough(),
});

export type TimelineKind = 'push' | 'pull-request' | 'issue';

export interface TimelineEvent {
  kind: TimelineKind;
  repository: string;
  /** Epoch ms. */
  at: number;
  /** What happened, in words ("pushed 3 commits to main", "opened #12"). */
  action: string;
  title: string | null;
}

function describe(event: z.infer<typeof eventSchema>): TimelineEvent | undefined {
  const at = Date.parse(event.created_at);
  if (!Number.isFinite(at)) return undefined;
  const { payload } = event;
  const base = { repository: event.repo.name, at };
  if (event.type === 'PushEvent') {
    const commits = payload.size ?? payload.commits?.length;
    const branch = payload.ref?.replace(/^refs\/heads\//, '');
    const what = commits === undefined ? 'pushed' : `pushed ${commits} commit${commits === 1 ? '' : 's'}`;
    return { ...base, kind: 'push', action: branch ? `${what} to ${branch}` : what, title: null };
  }
  if (event.type === 'PullRequestEvent') {
    const action =
      payload.action === 'closed' && payload.pull_request?.merged ? 'merged' : (payload.action ?? 'updated');
    const number = payload.number === undefined ? '' : ` #${payload.number}`;
    return {
      ...base,
      kind: 'pull-request',
      action: `${action} PR${number}`,
      title: payload.pull_request?.title ?? null,
    };
  }
  if (event.type === 'IssuesEvent') {
    const number = payload.issue?.number === undefined ? '' : ` #${payload.issue.number}`;
    return {
      ...base,
      kind: 'issue',
      action: `${payload.action ?? 'updated'} issue${number}`,
      title: payload.issue?.title ?? null,
    };
  }
  return undefined;
}

/** Push, pull request and issue events, newest first. */
export function fetchTimeline(context: FetchContext, login: string): Promise<TimelineEvent[]> {
  return context.cache.get<TimelineEvent[]>({
    key: `events:${keyPart(login)}`,
    ttlMs: EVENTS_TTL_MS,
    async load(previous) {
      const result = await context.client.rest(
        `/users/${encodeURIComponent(login)}/events/public?per_page=100`,
        {
          subject: `user "${login}"`,
          etag: previous?.etag,
        },
      );
      return dataOrCached(result, previous, (data) =>
        z
          .array(z.unknown())
          .parse(data)
          .map((raw) => eventSchema.safeParse(raw))
          .flatMap((parsed) => (parsed.success ? [describe(parsed.data)] : []))
          .filter((event): event is TimelineEvent => event !== undefined)
          .sort((a, b) => b.at - a.at),
      );
    },
  });
}
