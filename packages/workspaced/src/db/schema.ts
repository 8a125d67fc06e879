/**
 * @module Row types of the daemon's own tables (web-auth's `auth_*` tables are typed by
 * that package). Times are Unix milliseconds; SQLite integers.
 */
import type { Generated, Selectable } from 'kysely';

interface ProjectTable {
  id: Generated<number>;
  name: string;
  /** The canonical (realpath) root; every file and git path is resolved inside it. */
  path: string;
  /** The one workflow whose land step may land this project's tasks; null: any landing (PATCH /projects/{id}). */
  land_requires_workflow: string | null;
  created_by: string;
  created_at: number;
}

interface ProjectMemberTable {
  project_id: number;
  user_id: string;
  role: string;
  updated_at: number;
}

interface TaskTable {
  id: Generated<number>;
  project_id: number;
  title: string;
  description: string;
  priority: number;
  state: string;
  version: number;
  /** Set once a worktree is made, so renaming the task never changes its branch. */
  branch: string | null;
  worktree_path: string | null;
  /** The pull or merge request opened for the task (`POST /tasks/{id}/pull-request`). */
  pull_request_url: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** One run of a coding agent on a task, in a worktree and branch of its own (`src/attempts/`). */
interface TaskAttemptTable {
  id: Generated<number>;
  task_id: number;
  project_id: number;
  /** The agent profile's name (attempts/agent-profiles.ts). */
  profile: string;
  branch: string;
  base_branch: string;
  worktree_path: string;
  /** The live terminal of the agent's latest run; null once the daemon restarted. */
  terminal_id: number | null;
  /** `running`, `completed` (exit 0), `failed`, `stopped`. */
  state: string;
  exit_code: number | null;
  /** The last 4 KiB of the agent's terminal output, kept when its latest run exits. */
  output_tail: string | null;
  /** The commit that landed the attempt's branch on its base branch. */
  landed_commit: string | null;
  created_by: string;
  started_at: number;
  finished_at: number | null;
}

/** A peer daemon (`src/nodes/`). */
interface NodeTable {
  id: Generated<number>;
  name: string;
  /** Origin of the peer (`http://host:port`); the only address the daemon ever calls for it. */
  url: string;
  status: 'pending' | 'paired' | 'revoked';
  /** SHA-256 of the open one-time pairing code, with its expiry and failed guesses. */
  pairing_code_hash: string | null;
  pairing_expires_at: number | null;
  pairing_failures: Generated<number>;
  /** SHA-256 of the credential this peer presents to us. */
  inbound_credential_hash: string | null;
  /** The credential we present to this peer (it keeps only its hash). */
  outbound_credential: string | null;
  /** The peer's Ed25519 public key (base64url): registered, or learnt when pairing. */
  public_key: string | null;
  created_by: string;
  created_at: number;
  paired_at: number | null;
  last_seen_at: number | null;
  revoked_at: number | null;
}

/** A registered service (`src/services/`). */
interface ServiceTable {
  name: string;
  port: number;
  url: string | null;
  project_id: number | null;
  created_by: string;
  created_at: number;
}

interface WorkflowDefinitionTable {
  name: string;
  /** JSON: the validated steps (command kept as written). */
  steps: string;
  created_by: string;
  created_at: number;
}

interface WorkflowRunTable {
  id: Generated<number>;
  workflow: string;
  project_id: number;
  /** The task the run works on (a `land` step lands it); null for a run without one. */
  task_id: number | null;
  status: string;
  /** Index into `steps` of the step in progress; null once the run is over. */
  current_step: number | null;
  /** JSON object of the start's variables (string values). */
  variables: string;
  /** JSON array of the run's steps with their state (workflows/workflow-store.ts). */
  steps: string;
  error: string | null;
  started_by: string;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
}

/** A platform API token (`src/platform/`): only the SHA-256 of its secret is kept. */
interface ApiTokenTable {
  id: string;
  name: string;
  user_id: string;
  token_hash: string;
  /** JSON array of scopes (platform/token-scopes.ts). */
  scopes: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

/** A platform webhook registration: durable, unlike notification rules. */
interface WebhookTable {
  name: string;
  url: string;
  /** The HMAC key of `X-Workspaced-Signature`. */
  secret: string;
  /** JSON array of event patterns. */
  events: string;
  enabled: number;
  project_id: number | null;
  created_by: string;
  created_at: number;
  updated_at: number;
  /** JSON of the last delivery's outcome, status and time; null before the first. */
  last_delivery: string | null;
}

/** A registered plugin manifest; never executed. */
interface PluginTable {
  id: string;
  /** JSON: the validated manifest. */
  manifest: string;
  enabled: number;
  created_by: string;
  created_at: number;
  updated_at: number;
}

/** A browser's Web Push subscription (`src/push/`): where and how to send its owner's pushes. */
interface PushSubscriptionTable {
  id: Generated<number>;
  user_id: string;
  /** The push service URL; unique: a browser re-subscribing as another user moves it. */
  endpoint: string;
  /** The browser's P-256 public key (65 bytes, base64url) and auth secret (16 bytes, base64url). */
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: number;
  last_success_at: number | null;
}

export interface WorkspacedTables {
  projects: ProjectTable;
  project_members: ProjectMemberTable;
  tasks: TaskTable;
  task_attempts: TaskAttemptTable;
  nodes: NodeTable;
  services: ServiceTable;
  workflow_definitions: WorkflowDefinitionTable;
  workflow_runs: WorkflowRunTable;
  api_tokens: ApiTokenTable;
  webhooks: WebhookTable;
  plugins: PluginTable;
  push_subscriptions: PushSubscriptionTable;
}

export type ProjectRow = Selectable<ProjectTable>;
export type TaskRow = Selectable<TaskTable>;
export type TaskAttemptRow = Selectable<TaskAttemptTable>;
export type MemberRow = Selectable<ProjectMemberTable>;
export type WorkflowDefinitionRow = Selectable<WorkflowDefinitionTable>;
export type WorkflowRunRow = Selectable<WorkflowRunTable>;
export type NodeRow = Selectable<NodeTable>;
export type ServiceRow = Selectable<ServiceTable>;
export type ApiTokenRow = Selectable<ApiTokenTable>;
export type WebhookRow = Selectable<WebhookTable>;
export type PluginRow = Selectable<PluginTable>;
export type PushSubscriptionRow = Selectable<PushSubscriptionTable>;
