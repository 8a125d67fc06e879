/**
 * @module Cache of serialised response bodies without their per-request `metadata`: a page of a
 * leaderboard or a player record is stringified once per index/presence generation, and each
 * request only appends fresh metadata.
 */

interface Fragment {
  generation: string;
  /** The body's JSON without the closing brace. */
  head: string;
}

/** Bodies kept at once; the oldest is dropped first. */
const defaultCapacity = 2_000;

export class FragmentCache {
  private readonly fragments = new Map<string, Fragment>();

  constructor(private readonly capacity = defaultCapacity) {}

  /**
   * Returns `body` (built only on a miss) followed by `"metadata": metadata()` (called last, so
   * it can time the whole request), as one JSON text.
   * `body` must be a plain object; metadata ends up as its last key.
   */
  render(key: string, generation: string, body: () => object, metadata: () => object): string {
    let fragment = this.fragments.get(key);
    if (fragment?.generation !== generation) {
      fragment = { generation, head: JSON.stringify(body()).slice(0, -1) };
      this.fragments.delete(key);
      this.fragments.set(key, fragment);
      if (this.fragments.size > this.capacity) this.fragments.delete(this.fragments.keys().next().value!);
    }
    const separator = fragment.head.length > 1 ? ',' : '';
    return `${fragment.head}${separator}"metadata":${JSON.stringify(metadata())}}`;
  }
}
