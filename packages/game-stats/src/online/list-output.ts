/**
 * @module Parser of the game's `list` / `list uuids` command output:
 * `There are 2 of a max of 20 players online: Alice (uuid), Bob (uuid)`.
 */
import { normaliseUuid } from '../index/uuid.js';

interface OnlinePlayer {
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
const uuidText = /^[0-9a-fA-F-]{32,36}$/;

/** `Name (uuid)` split without a backtracking regex: the name, and the text in the last brackets. */
function splitUuidEntry(item: string): [name: string, uuid: string] | null {
  const open = item.lastIndexOf('(');
  if (open < 1 || !item.endsWith(')')) return null;
  const uuid = item.slice(open + 1, -1);
  const name = item.slice(0, open).trimEnd();
  return name !== '' && uuidText.test(uuid) ? [name, uuid] : null;
}

export function parseListOutput(raw: string): OnlineList | null {
  const text = raw.replace(formattingCode, '');
  const match = header.exec(text);
  if (!match) return null;
  const rest = text.slice(match.index + match[0].length).trim();
  const players: OnlinePlayer[] = [];
  for (const part of rest === '' ? [] : rest.split(',')) {
    const item = part.trim();
    if (item === '') continue;
    const withUuid = splitUuidEntry(item);
    const uuid = withUuid ? normaliseUuid(withUuid[1]) : null;
    if (withUuid && uuid) players.push({ name: withUuid[0], uuid });
    else players.push({ name: item });
  }
  return { online: Number(match[1]), max: Number(match[2]), players };
}
