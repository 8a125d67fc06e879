/**
 * @module Parser of the game's `list` / `list uuids` command output:
 * `There are 2 of a max of 20 players online: Alice (uuid), Bob (uuid)`.
 */
import { normaliseUuid } from '../index/uuid.js';

export interface OnlinePlayer {
  name: string;
  /** Present when the server printed it (`list uuids`). */
  uuid?: string;
}

export interface OnlineList {
  online: number;
  max: number | null;
  players: OnlinePlayer[];
}

/** Formatting codes (`§a`) some servers put in command output. */
const formattingCode = /\u00a7[0-9a-fk-or]/gi;
const header = /There are (\d+)(?: of a max of |\/)(\d+) players online:?/i;
const entryWithUuid = /^(.+?)\s*\(([0-9a-fA-F-]{32,36})\)$/;

export function parseListOutput(raw: string): OnlineList | null {
  const text = raw.replace(formattingCode, '');
  const match = header.exec(text);
  if (!match) return null;
  const rest = text.slice(match.index + match[0].length).trim();
  const players: OnlinePlayer[] = [];
  for (const part of rest === '' ? [] : rest.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const withUuid = entryWithUuid.exec(item);
    const uuid = withUuid ? normaliseUuid(withUuid[2]!) : null;
    if (withUuid && uuid) players.push({ name: withUuid[1]!, uuid });
    else players.push({ name: item });
  }
  return { online: Number(match[1]), max: Number(match[2]), players };
}
