/**
 * @module A bounded map whose entries expire in the order they were written, so expired entries
 * are swept from the front in amortised constant time and a live entry is never evicted.
 */

interface Slot<V> {
  value: V;
  expiresAt: number;
}

/**
 * Every table that uses it writes entries living a fixed duration (`now + constant`), so insertion
 * order is expiry order: sweeping stops at the first live entry. When the table is full of live
 * entries a new key is refused (`set` returns false) instead of pushing a live one out.
 */
export class ExpiringMap<V> {
  private readonly slots = new Map<string, Slot<V>>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.slots.size;
  }

  get(key: string, now: number): V | undefined {
    const slot = this.slots.get(key);
    return slot && slot.expiresAt > now ? slot.value : undefined;
  }

  /** Stores `value` until `expiresAt` (moving the key to the back); false when full of live entries. */
  set(key: string, value: V, expiresAt: number, now: number): boolean {
    this.sweep(now);
    const known = this.slots.delete(key);
    if (!known && this.slots.size >= this.maxEntries) return false;
    this.slots.set(key, { value, expiresAt });
    return true;
  }

  delete(key: string): void {
    this.slots.delete(key);
  }

  private sweep(now: number): void {
    for (const [key, slot] of this.slots) {
      if (slot.expiresAt > now) return;
      this.slots.delete(key);
    }
  }
}
