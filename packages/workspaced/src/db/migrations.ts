/**
 * @module The daemon's schema migrations (prefixed `workspaced-`), run after web-auth's own.
 */
import type { Kysely, Migration } from 'kysely';

export const workspacedMigrations: Record<string, Migration> = {
  'workspaced-0001-projects-tasks': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('projects')
        .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('path', 'text', (col) => col.notNull())
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('project_members')
        .addColumn('project_id', 'integer', (col) =>
          col.notNull().references('projects.id').onDelete('cascade'),
        )
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('updated_at', 'integer', (col) => col.notNull())
        .addPrimaryKeyConstraint('project_members_pk', ['project_id', 'user_id'])
        .execute();
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        .addColumn('project_id', 'integer', (col) =>
          col.notNull().references('projects.id').onDelete('cascade'),
        )
        .addColumn('title', 'text', (col) => col.notNull())
        .addColumn('description', 'text', (col) => col.notNull())
        .addColumn('priority', 'integer', (col) => col.notNull())
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('version', 'integer', (col) => col.notNull())
        .addColumn('branch', 'text')
        .addColumn('worktree_path', 'text')
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('updated_at', 'integer', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('tasks_project').on('tasks').columns(['project_id', 'id']).execute();
    },
  },
  'workspaced-0002-nodes-services': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('nodes')
        .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        .addColumn('name', 'text', (col) => col.notNull().unique())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('pairing_code_hash', 'text')
        .addColumn('pairing_expires_at', 'integer')
        .addColumn('pairing_failures', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('inbound_credential_hash', 'text', (col) => col.unique())
        .addColumn('outbound_credential', 'text')
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('paired_at', 'integer')
        .addColumn('last_seen_at', 'integer')
        .addColumn('revoked_at', 'integer')
        .execute();
      await db.schema
        .createTable('services')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('port', 'integer', (col) => col.notNull())
        .addColumn('url', 'text')
        .addColumn('project_id', 'integer', (col) => col.references('projects.id').onDelete('cascade'))
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .execute();
    },
  },
  'workspaced-0003-workflows': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('workflow_definitions')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('steps', 'text', (col) => col.notNull())
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .execute();
      await db.schema
        .createTable('workflow_runs')
        .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        .addColumn('workflow', 'text', (col) => col.notNull())
        .addColumn('project_id', 'integer', (col) =>
          col.notNull().references('projects.id').onDelete('cascade'),
        )
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('current_step', 'integer')
        .addColumn('variables', 'text', (col) => col.notNull())
        .addColumn('steps', 'text', (col) => col.notNull())
        .addColumn('error', 'text')
        .addColumn('started_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('updated_at', 'integer', (col) => col.notNull())
        .addColumn('finished_at', 'integer')
        .execute();
      await db.schema.createIndex('workflow_runs_status').on('workflow_runs').columns(['status']).execute();
    },
  },
  'workspaced-0004-node-public-key': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('nodes').addColumn('public_key', 'text').execute();
    },
  },
  'workspaced-0005-platform': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('api_tokens')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('name', 'text', (col) => col.notNull())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('token_hash', 'text', (col) => col.notNull().unique())
        .addColumn('scopes', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('expires_at', 'integer')
        .addColumn('last_used_at', 'integer')
        .addColumn('revoked_at', 'integer')
        .execute();
      await db.schema.createIndex('api_tokens_user').on('api_tokens').columns(['user_id']).execute();
      await db.schema
        .createTable('webhooks')
        .addColumn('name', 'text', (col) => col.primaryKey())
        .addColumn('url', 'text', (col) => col.notNull())
        .addColumn('secret', 'text', (col) => col.notNull())
        .addColumn('events', 'text', (col) => col.notNull())
        .addColumn('enabled', 'integer', (col) => col.notNull())
        .addColumn('project_id', 'integer', (col) => col.references('projects.id').onDelete('cascade'))
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('updated_at', 'integer', (col) => col.notNull())
        .addColumn('last_delivery', 'text')
        .execute();
      await db.schema
        .createTable('plugins')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('manifest', 'text', (col) => col.notNull())
        .addColumn('enabled', 'integer', (col) => col.notNull())
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('updated_at', 'integer', (col) => col.notNull())
        .execute();
    },
  },
  'workspaced-0006-task-attempts': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('tasks').addColumn('pull_request_url', 'text').execute();
      await db.schema
        .createTable('task_attempts')
        .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        .addColumn('task_id', 'integer', (col) => col.notNull().references('tasks.id').onDelete('cascade'))
        .addColumn('project_id', 'integer', (col) =>
          col.notNull().references('projects.id').onDelete('cascade'),
        )
        .addColumn('profile', 'text', (col) => col.notNull())
        .addColumn('branch', 'text', (col) => col.notNull())
        .addColumn('base_branch', 'text', (col) => col.notNull())
        .addColumn('worktree_path', 'text', (col) => col.notNull())
        .addColumn('terminal_id', 'integer')
        .addColumn('state', 'text', (col) => col.notNull())
        .addColumn('exit_code', 'integer')
        .addColumn('landed_commit', 'text')
        .addColumn('created_by', 'text', (col) => col.notNull())
        .addColumn('started_at', 'integer', (col) => col.notNull())
        .addColumn('finished_at', 'integer')
        .execute();
      await db.schema
        .createIndex('task_attempts_task')
        .on('task_attempts')
        .columns(['task_id', 'id'])
        .execute();
      await db.schema.createIndex('task_attempts_state').on('task_attempts').columns(['state']).execute();
    },
  },
  'workspaced-0007-push-subscriptions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('push_subscriptions')
        .addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement())
        .addColumn('user_id', 'text', (col) => col.notNull())
        .addColumn('endpoint', 'text', (col) => col.notNull().unique())
        .addColumn('p256dh', 'text', (col) => col.notNull())
        .addColumn('auth', 'text', (col) => col.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('created_at', 'integer', (col) => col.notNull())
        .addColumn('last_success_at', 'integer')
        .execute();
      await db.schema
        .createIndex('push_subscriptions_user')
        .on('push_subscriptions')
        .columns(['user_id'])
        .execute();
    },
  },
  'workspaced-0008-attempt-output-tail': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('task_attempts').addColumn('output_tail', 'text').execute();
    },
  },
  'workspaced-0009-workflow-land': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('workflow_runs').addColumn('task_id', 'integer').execute();
      await db.schema.alterTable('projects').addColumn('land_requires_workflow', 'text').execute();
    },
  },
};
