/**
 * @module UUID recognition: the dashed form the game uses, and the 32-digit form some tools print.
 */

const dashed = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const compact = /^[0-9a-f]{32}$/;

/** Lower-case dashed UUID, or null when the text is not a UUID. */
export function normaliseUuid(text: string): string | null {
  const lower = text.toLowerCase();
  if (dashed.test(lower)) return lower;
  if (compact.test(lower)) {
    return `${lower.slice(0, 8)}-${lower.slice(8, 12)}-${lower.slice(12, 16)}-${lower.slice(16, 20)}-${lower.slice(20)}`;
  }
  return null;
}
