/**
 * @module Which part of a network an answer counts (`?server=<name>`, or every server), and the
 * per-server fields a network's answers carry: each server's state, where a player is online.
 */
import type { StatHistory } from '../history/stat-history.js';
import type { ServerView } from '../index/server-view.js';
import type { StatsSource } from '../index/stats-source.js';
import type { NetworkPresence } from '../online/network-presence.js';
import type { Presence } from '../online/presence.js';
import type { Directory } from '../query/directory.js';
import type { ApiContext } from './api-context.js';
import { NotFound } from './parse-request.js';
import type { ServerStateBody } from './response-schemas.js';

/** One server of a network, with the read models of its own statistics. */
export interface NetworkServer {
  view: ServerView;
  presence: Presence;
  directory: Directory;
  history?: StatHistory;
  maxPlayers: number;
}

export interface Network {
  servers: NetworkServer[];
  presence: NetworkPresence;
}

/** What an answer is counted from. */
export interface Scope {
  /** The server asked for; null for every server (and always for a single server). */
  server: string | null;
  source: StatsSource;
  directory: Directory;
  history?: StatHistory;
}

/** The scope of `?server=` (ignored by a single server); an unknown name is a 404. */
export function scopeOf(context: ApiContext, server: string | undefined): Scope {
  const whole = {
    server: null,
    source: context.index,
    directory: context.directory,
    history: context.history,
  };
  if (!context.network || server === undefined) return whole;
  const member = context.network.servers.find((candidate) => candidate.view.name === server);
  if (!member) throw new NotFound(`Unknown server: ${server}`);
  return { server, source: member.view, directory: member.directory, history: member.history };
}

/**
 * A server's state: `stale` while its folder cannot be read (its last known statistics are
 * served), else `offline` while its configured online source is unreachable, else `ok`.
 */
export function serverState(member: NetworkServer): ServerStateBody {
  const { folder } = member.view;
  const presence = member.presence.snapshot();
  if (!folder.readable)
    return {
      name: member.view.name,
      state: 'stale',
      since: new Date(folder.since).toISOString(),
      reason: `server folder unreadable (${folder.reason})`,
    };
  const connectionSince = new Date(Math.max(folder.since, member.presence.connectionSince)).toISOString();
  if (presence.source !== 'none' && !presence.connected)
    return {
      name: member.view.name,
      state: 'offline',
      since: connectionSince,
      reason: `${presence.source} unreachable: ${presence.lastError ?? 'not connected yet'}`,
    };
  return { name: member.view.name, state: 'ok', since: connectionSince, reason: null };
}

/** The additive fields of a network's answers (none for a single server). */
export function networkFields(context: ApiContext): { servers?: ServerStateBody[] } {
  return context.network ? { servers: context.network.servers.map(serverState) } : {};
}

/** Adds `server` (where the player is online) to an entry of a network's answer. */
export function withOnlineServer<Entry extends { uuid: string }>(
  context: ApiContext,
  entry: Entry,
): Entry & { server?: string | null } {
  return context.network ? { ...entry, server: context.network.presence.serverOf(entry.uuid) } : entry;
}

/** The `metadata.server` of a network's answer. */
export function scopeMetadata(context: ApiContext, scope: Scope): { server?: string | null } {
  return context.network ? { server: scope.server } : {};
}
