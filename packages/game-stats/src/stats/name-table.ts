/**
 * @module Interned names looked up straight from a slice of a larger text, so that a name seen
 * before costs no string: an open-addressing table of typed arrays keyed by a hash the caller
 * computes while scanning (FNV-1a over the UTF-16 code units, see `hashStep`), each name
 * scoped by a small integer (a key's category), confirmed against the text code unit by code
 * unit from a copy of the names in one typed array (faster than `startsWith` on the names,
 * slices of the files they were first seen in: 160 against 195 ns per entry).
 */

/** FNV-1a's 32-bit offset basis and prime. */
export const hashSeed = 0x811c9dc5 | 0;
const fnvPrime = 0x01000193;

/** Folds one UTF-16 code unit into a name's hash. */
export function hashStep(hash: number, code: number): number {
  return Math.imul(hash ^ code, fnvPrime);
}

/** The hash of a whole name, as a scanner computes it with `hashStep`. */
export function hashName(name: string): number {
  let hash = hashSeed;
  for (let at = 0; at < name.length; at++) hash = hashStep(hash, name.charCodeAt(at));
  return hash;
}

/** Mixes the scope in and spreads FNV's weak high bits down to the slot bits (murmur3's finaliser). */
function slotHash(hash: number, scope: number): number {
  let mixed = hash ^ Math.imul(scope + 1, 0x9e3779b1);
  mixed = Math.imul(mixed ^ (mixed >>> 16), 0x85ebca6b);
  mixed = Math.imul(mixed ^ (mixed >>> 13), 0xc2b2ae35);
  return mixed ^ (mixed >>> 16);
}

export class NameTable {
  /** Each entry's name; entries are numbered in the order added. */
  readonly names: string[] = [];
  private scopes = new Int32Array(64);
  private hashes = new Int32Array(64);
  /** The names' code units, entry after entry; entry `e` is `chars[starts[e], starts[e + 1])`. */
  private chars = new Uint16Array(4096);
  private starts = new Int32Array(65);
  /** Entry + 1 per slot, 0 when free; at most half full. */
  private slots = new Int32Array(128);
  private mask = 127;

  scopeOf(entry: number): number {
    return this.scopes[entry]!;
  }

  /** The entry of the name `source[start, end)` in `scope`, whose hash is `hash`; else -1. */
  find(scope: number, source: string, start: number, end: number, hash: number): number {
    const wanted = slotHash(hash, scope);
    const length = end - start;
    for (let slot = wanted & this.mask; ; slot = (slot + 1) & this.mask) {
      const entry = this.slots[slot]! - 1;
      if (entry < 0) return -1;
      if (this.hashes[entry] === wanted && this.scopes[entry] === scope) {
        let from = this.starts[entry]!;
        if (this.starts[entry + 1]! - from === length) {
          const chars = this.chars;
          let at = start;
          while (at < end && chars[from] === source.charCodeAt(at)) {
            at++;
            from++;
          }
          if (at === end) return entry;
        }
      }
    }
  }

  /** Adds a name `find` did not find; returns its entry. */
  add(scope: number, name: string, hash: number): number {
    const entry = this.names.length;
    if (entry === this.scopes.length) {
      this.scopes = grown(this.scopes);
      this.hashes = grown(this.hashes);
      this.starts = grown(this.starts);
    }
    const from = this.starts[entry]!;
    while (from + name.length > this.chars.length) this.chars = grown(this.chars);
    for (let at = 0; at < name.length; at++) this.chars[from + at] = name.charCodeAt(at);
    this.starts[entry + 1] = from + name.length;
    this.names.push(name);
    this.scopes[entry] = scope;
    this.hashes[entry] = slotHash(hash, scope);
    if ((entry + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(entry);
    return entry;
  }

  private rehash(capacity: number) {
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let entry = 0; entry < this.names.length; entry++) this.place(entry);
  }

  private place(entry: number) {
    let slot = this.hashes[entry]! & this.mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & this.mask;
    this.slots[slot] = entry + 1;
  }
}

/** A copy of `array` twice as long. */
export function grown<T extends Int32Array | Uint16Array | Float64Array>(array: T): T {
  const copy = new (array.constructor as new (length: number) => T)(array.length * 2);
  copy.set(array);
  return copy;
}
