/**
 * @module Serialized audit pages, reused while the trail has not grown. The trail is append-only,
 * so a page is fully determined by its query and the newest sequence number: one indexed lookup
 * of the head replaces reading, parsing and re-serializing up to 500 entries. Bounded in size.
 */

const maxPages = 64;

export class AuditPageCache {
  readonly #pages = new Map<string, string>();

  /** The cached JSON for `query` at `head`, or the result of `render` (then cached). */
  async get(query: unknown, head: number, render: () => Promise<string>): Promise<string> {
    const key = `${head}:${JSON.stringify(query)}`;
    const cached = this.#pages.get(key);
    if (cached !== undefined) return cached;
    const page = await render();
    if (this.#pages.size >= maxPages) this.#pages.delete(this.#pages.keys().next().value!);
    this.#pages.set(key, page);
    return page;
  }
}
