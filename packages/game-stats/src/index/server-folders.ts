/**
 * @module The health of a network's server folders. A folder gone or unreadable keeps its
 * players' last known statistics (its files are neither read nor forgotten meanwhile); when it
 * comes back, every file of it is checked again (see ChangeFollower).
 */
import { opendirSync } from 'node:fs';
import type { Logger } from 'pino';
import type { ServerView } from './server-view.js';
import type { NetworkMember } from './stats-file-locator.js';

export class ServerFolders {
  constructor(
    private readonly members: readonly NetworkMember[],
    /** Each server's view, whose `folder` state this keeps; empty for a single server. */
    private readonly servers: readonly ServerView[],
    /** Called when a folder's state changed (the index moves to a new generation). */
    private readonly onChange: () => void,
    private readonly logger?: Logger,
  ) {}

  /** Checks every server's folder; returns the servers whose folder is readable again. */
  check(): number[] {
    let changed = false;
    const back: number[] = [];
    this.servers.forEach((view, server) => {
      const reason = unreadableReason(this.members[server]!.serverDir);
      if ((reason === null) === view.folder.readable) return;
      view.folder = { readable: reason === null, since: Date.now(), reason };
      changed = true;
      if (reason === null) back.push(server);
      this.logger?.[reason === null ? 'info' : 'warn'](
        { server: view.name, folder: this.members[server]!.serverDir, reason },
        reason === null
          ? 'server folder readable again'
          : 'server folder unreadable, keeping its last known data',
      );
    });
    if (changed) this.onChange();
    return back;
  }

  /** Whether the server's folder was readable when last checked (always, for a single server). */
  wasReadable(server: number): boolean {
    return this.servers[server]?.folder.readable ?? true;
  }

  /** Whether a server's folder is readable; a newly unreadable one is recorded (see check). */
  isReadable(server: number): boolean {
    const view = this.servers[server];
    if (!view) return true;
    if (!view.folder.readable) return false;
    const reason = unreadableReason(this.members[server]!.serverDir);
    if (reason === null) return true;
    view.folder = { readable: false, since: Date.now(), reason };
    this.onChange();
    return false;
  }
}

/** Why a folder cannot be listed (its error code), or null when it can. */
function unreadableReason(folder: string): string | null {
  try {
    opendirSync(folder).closeSync();
    return null;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? 'unreadable';
  }
}
