/**
 * @module Serialized audit pages (encoded answer prefixes, see `okPrefix` in envelope.ts), reused
 * while the trail has not changed. Entries are only appended or pruned from the oldest end, so a
 * page is fully determined by its query string and the newest and oldest sequence numbers: one indexed lookup of the head replaces parsing
 * the query and reading, parsing and re-serializing up to 500 entries. Keyed by the raw query string (the same string always asks for the same page; invalid
 * ones throw in `render` and are not cached). Bounded in size.
 */

const maxPages = 64;

export class AuditPageCache {
  readonly #pages = new Map<string, Buffer>();

  /** The cached page for `queryString` at `head` (newest and oldest seq), or the result of `render` (then cached). */
  async get(queryString: string, head: string, render: () => Promise<Buffer>): Promise<Buffer> {
    const key = `${head}?${queryString}`;
    const cached = this.#pages.get(key);
    if (cached !== undefined) return cached;
    const page = await render();
    if (this.#pages.size >= maxPages) this.#pages.delete(this.#pages.keys().next().value!);
    this.#pages.set(key, page);
    return page;
  }
}

/** What follows `?` in a request URL (empty when there is none). */
export function queryStringOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}
