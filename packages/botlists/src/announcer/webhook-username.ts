/**
 * @module The `username` a webhook message may carry: Discord refuses names containing "discord"
 * or "clyde" (any case) and names longer than 80 characters.
 */
import { BotlistsError } from '../errors.js';

export const MAX_WEBHOOK_USERNAME = 80;
const REFUSED_WORD = /discord|clyde/i;

/** Why Discord would refuse the name, or null when it is accepted. */
export function webhookUsernameProblem(name: string): string | null {
  if (name.trim().length === 0) return 'is empty';
  const word = REFUSED_WORD.exec(name);
  if (word) return `contains "${word[0]}", which Discord refuses in webhook names`;
  return null;
}

/** A configured `username` is refused at construction with this error. */
export function assertWebhookUsername(name: string): string {
  const problem = webhookUsernameProblem(name);
  if (problem) throw new BotlistsError(`announcer username "${name}" ${problem}`);
  return name;
}
