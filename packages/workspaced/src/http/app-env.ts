/**
 * @module What every route module receives: the daemon's services (`DaemonContext`) and the
 * per-request values the middleware sets (`AppEnv`).
 */
import type { AuthState } from '@suite/web-auth';
import type { Logger } from 'pino';
import type { Role } from '../access/roles.js';
import type { AttemptRunner } from '../attempts/attempt-runner.js';
import type { TaskLanding } from '../attempts/task-landing.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import type { ProjectRow, TaskRow } from '../db/schema.js';
import type { FileLimits } from '../files/limits.js';
import type { NotificationCenter } from '../notifications/notification-center.js';
import type { DeliveryPolicy } from '../outbound/signed-delivery.js';
import type { Caller } from '../platform/caller.js';
import type { PushSender } from '../push/push-sender.js';
import type { AttentionCenter } from '../realtime/attention-center.js';
import type { EventBus } from '../realtime/event-bus.js';
import type { SocketRegistry } from '../realtime/socket-registry.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';
import type { WorkflowRunner } from '../workflows/workflow-runner.js';

export interface DaemonContext {
  db: WorkspacedDb;
  /** Canonical data folder (worktrees live below it). */
  dataDir: string;
  fileLimits: FileLimits;
  logger: Logger;
  name: string;
  version: string;
  startedAt: number;
  /** Live PTYs. */
  terminals: TerminalManager;
  /** Realtime events with sequence numbers. */
  events: EventBus;
  /** Open attention items. */
  attention: AttentionCenter;
  /** Workflow runs in progress. */
  workflows: WorkflowRunner;
  /** Outbound webhook rules: timeouts, retries, private targets. */
  delivery: DeliveryPolicy;
  /** Notification rules and their delivery. */
  notifications: NotificationCenter;
  /** Web Push to the users' subscribed devices (`src/push/`). */
  push: PushSender;
  /** Open WebSockets by user and session, closed when those change. */
  sockets: SocketRegistry;
  /** Agent profiles and the agents started on tasks (attempts/attempt-runner.ts). */
  attempts: AttemptRunner;
  /** Landings and pull requests, one per project at a time (attempts/task-landing.ts). */
  landing: TaskLanding;
}

export type AppEnv = {
  Variables: {
    /** web-auth's session state (null without a valid session cookie). */
    auth: AuthState | null;
    principal: Principal;
    /** A bearer token's user or an MCP tool dispatch (platform/caller.ts); unset for sessions. */
    caller: Caller | undefined;
    requestId: string;
    /** Set by the project / task guards. */
    project: ProjectRow;
    task: TaskRow;
    /** The caller's effective role in `project`. */
    projectRole: Role;
  };
};
