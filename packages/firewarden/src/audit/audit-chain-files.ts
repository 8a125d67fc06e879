/**
 * @module Where firewarden keeps the audit chain's HMAC key and head: outside the database, in
 * the state folder beside the SQLite file (`/var/lib/firewarden/audit.key` and `audit.head`, mode
 * 0600, owned by the service user like the database) unless `audit.key_file` / `audit.head_file`
 * say otherwise. With PostgreSQL the same folder is used: the point is that someone who can
 * change the database cannot change these.
 */
import path from 'node:path';
import { type AuditChainFiles, auditChainFiles } from '@suite/web-auth';
import type { Config } from '../config/schema.js';

function auditChainPaths(config: Config): { keyFile: string; headFile: string } {
  const folder = path.dirname(config.database.sqlite_path);
  return {
    keyFile: config.audit.key_file ?? path.join(folder, 'audit.key'),
    headFile: config.audit.head_file ?? path.join(folder, 'audit.head'),
  };
}

/** The key (created when missing unless `create` is false: diagnostics create nothing) and the head. */
export function firewardenAuditChain(config: Config, options: { create?: boolean } = {}): AuditChainFiles {
  return auditChainFiles(auditChainPaths(config), options);
}
