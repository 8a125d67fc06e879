/**
 * @module Interned statistic keys: every `(category, key)` pair seen in any file gets a small
 * integer id, so 100,000 players' statistics fit in typed arrays instead of millions of strings.
 */

export class StatKeyTable {
  private readonly ids = new Map<string, number>();
  private readonly categoryIds = new Map<string, number>();
  /** Category id of each key id. */
  readonly categoryOfKey: number[] = [];
  readonly categoryNames: string[] = [];
  readonly keyNames: string[] = [];

  /** Id of a pair, created on first sight. */
  intern(category: string, key: string): number {
    const composite = `${category}\u0000${key}`;
    let id = this.ids.get(composite);
    if (id === undefined) {
      id = this.keyNames.length;
      this.ids.set(composite, id);
      this.keyNames.push(key);
      this.categoryOfKey.push(this.internCategory(category));
    }
    return id;
  }

  /** Id of a pair if any file ever held it. */
  find(category: string, key: string): number | undefined {
    return this.ids.get(`${category}\u0000${key}`);
  }

  findCategory(category: string): number | undefined {
    return this.categoryIds.get(category);
  }

  private internCategory(category: string): number {
    let id = this.categoryIds.get(category);
    if (id === undefined) {
      id = this.categoryNames.length;
      this.categoryIds.set(category, id);
      this.categoryNames.push(category);
    }
    return id;
  }
}
