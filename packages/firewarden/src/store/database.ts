/**
 * @module The whole database as kysely sees it: web-auth's `auth_` tables and firewarden's own.
 */
import type { AuthDatabase } from '@suite/web-auth';
import type { FirewardenTables } from './tables.js';

export type Database = FirewardenTables & AuthDatabase;
