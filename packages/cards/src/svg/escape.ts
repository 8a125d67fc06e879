/**
 * @module The one place where text enters an SVG or HTML document: XML escaping.
 */

/** Characters XML 1.0 forbids (C0 controls except tab/newline/CR, lone surrogates, U+FFFE/U+FFFF). */
const forbiddenInXml =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters being removed
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

const entityOf: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for use as XML character data or a quoted attribute value. Characters that
 * XML cannot carry at all are dropped, so the document always parses.
 *
 * @example escapeXml('<b title="x">') // '&lt;b title=&quot;x&quot;&gt;'
 */
export function escapeXml(text: string): string {
  return text.replace(forbiddenInXml, '').replace(/[&<>"']/g, (char) => entityOf[char]!);
}

/** Removes characters XML forbids without escaping (for text that is measured before escaping). */
export function stripForbiddenXmlChars(text: string): string {
  return text.replace(forbiddenInXml, '');
}
