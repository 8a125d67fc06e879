/**
 * @module Characters a manifest must not hold because a terminal acts on them instead of showing
 * them: C0 controls (ESC starts the sequences that retitle a window, rewrite the screen or, on
 * some terminals, answer back as typed input), DEL, C1 controls (U+0080-U+009F, 8-bit escape
 * sequences) and the bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) that
 * make text read in another order than it is. Install refuses them; the CLI escapes them in what
 * it prints, for manifests stored before they were refused.
 */

function isUnsafeCharacter(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** The first unsafe character of `text`, as `U+001B`, or null. */
function firstUnsafeCharacter(text: string): string | null {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isUnsafeCharacter(code)) return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return null;
}

/** Each unsafe character written as a `\u001b` escape, so it is shown and never acted on. */
export function escapeUnsafeCharacters(text: string): string {
  return escapeEach(text, () => false);
}

/**
 * The same for JSON text: the escape is JSON's own, so the document parses to the same strings;
 * its newlines are layout (JSON.stringify escapes those inside strings) and are kept.
 */
export function escapeUnsafeInJson(text: string): string {
  return escapeEach(text, (character) => character === '\n');
}

function escapeEach(text: string, keep: (character: string) => boolean): string {
  let escaped = '';
  for (const character of text) {
    const code = character.charCodeAt(0);
    escaped +=
      isUnsafeCharacter(code) && !keep(character) ? `\\u${code.toString(16).padStart(4, '0')}` : character;
  }
  return escaped;
}

interface UnsafeString {
  /** Dotted key path, its keys escaped (`widgets.0.title`). */
  path: string;
  character: string;
}

/** The first string (key or value) anywhere in parsed YAML that holds an unsafe character. */
export function findUnsafeString(value: unknown, path: string[] = []): UnsafeString | null {
  const at = (keys: string[]) => keys.map(escapeUnsafeCharacters).join('.') || '(root)';
  if (typeof value === 'string') {
    const character = firstUnsafeCharacter(value);
    return character ? { path: at(path), character } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, item] of Object.entries(value)) {
    const inKey = firstUnsafeCharacter(key);
    if (inKey) return { path: at([...path, key]), character: inKey };
    const found = findUnsafeString(item, [...path, key]);
    if (found) return found;
  }
  return null;
}
