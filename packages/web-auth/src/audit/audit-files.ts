/**
 * @module The usual place of the chain's key and head: two files in the product's data folder,
 * outside the database (`audit.key` and `audit.head`, both mode 0600).
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { type AuditHeadStore, fileAuditHead } from './audit-head.js';
import { loadOrCreateAuditKey, readAuditKey } from './audit-key.js';

export interface AuditChainFiles {
  key: Buffer;
  head: AuditHeadStore;
  keyFile: string;
  headFile: string;
  /**
   * False when `create` was false and the key file does not exist: the key is then random, so
   * the legacy part of a trail verifies and a keyed entry does not (read-only diagnostics).
   */
  keyFound: boolean;
}

export function auditChainFiles(
  files: { keyFile: string; headFile: string } | string,
  options: { create?: boolean } = {},
): AuditChainFiles {
  const { keyFile, headFile } =
    typeof files === 'string'
      ? { keyFile: path.join(files, 'audit.key'), headFile: path.join(files, 'audit.head') }
      : files;
  const key = options.create === false ? readAuditKey(keyFile) : loadOrCreateAuditKey(keyFile);
  return {
    key: key ?? randomBytes(32),
    head: fileAuditHead(headFile),
    keyFile,
    headFile,
    keyFound: key !== null,
  };
}
