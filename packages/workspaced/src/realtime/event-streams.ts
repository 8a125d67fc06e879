/**
 * @module The streams a client may subscribe to on the event socket, and who may: `project:<id>`
 * (project.view in that project: terminal lifecycle, tasks, workflow runs, attention) and
 * `terminal:<id>` (terminal.view on that live terminal) and `user:<id>` (that user only: their
 * notifications). Re-checked on every `sub`.
 */

import { roleHas } from '../access/permissions.js';
import { effectiveProjectRole } from '../access/project-permission.js';
import type { Principal } from '../auth/principal.js';
import type { WorkspacedDb } from '../db/open-database.js';
import { parseId } from '../http/request-input.js';
import { findProject } from '../projects/project-store.js';
import { terminalRole } from '../terminals/terminal-access.js';
import type { TerminalManager } from '../terminals/terminal-manager.js';

function parseStream(stream: string): { kind: string; id: number } | undefined {
  const colon = stream.indexOf(':');
  if (colon < 0 || stream.length > 64) return undefined;
  const id = parseId(stream.slice(colon + 1));
  return id === undefined ? undefined : { kind: stream.slice(0, colon), id };
}

/** True when `principal` may receive the events of `stream` (unknown streams: false). */
export async function maySubscribe(
  db: WorkspacedDb,
  terminals: TerminalManager,
  principal: Principal,
  stream: string,
): Promise<boolean> {
  if (stream.startsWith('user:')) return stream === `user:${principal.id}`;
  const parsed = parseStream(stream);
  if (parsed?.kind === 'project') {
    const project = await findProject(db, parsed.id);
    const role = project ? await effectiveProjectRole(db, principal, project) : undefined;
    return role !== undefined && roleHas(role, 'project.view');
  }
  if (parsed?.kind === 'terminal') {
    const session = terminals.get(parsed.id);
    const role = session ? await terminalRole(db, principal, session) : undefined;
    return role !== undefined && roleHas(role, 'terminal.view');
  }
  return false;
}
