/**
 * @module Element ids of a piece of SVG made its own: every `id` and every reference to one
 * (`url(#...)`, `href="#..."`) prefixed, so drawings put into one document never share an id.
 */

/** `markup` with each id, and each reference to one, prefixed with `prefix`. */
export function prefixIds(markup: string, prefix: string): string {
  return markup
    .replace(/\bid="([^"]+)"/g, `id="${prefix}$1"`)
    .replace(/url\(#([^()]+)\)/g, `url(#${prefix}$1)`)
    .replace(/href="#([^"]+)"/g, `href="#${prefix}$1"`);
}
