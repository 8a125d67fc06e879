/**
 * @module The first build's fast path: a statistics file as the game writes it
 * (`{"stats":{"minecraft:custom":{"minecraft:jump":12,...},...},"DataVersion":4440}`) read
 * straight from its text, without JSON.parse, into local key ids and values. JSON.parse built
 * an object per category with a hidden class per key set, different in every file: at 100,000
 * players it took 1.8 s of CPU per core, 40 % of the build (profiled). Then a string
 * per key and two map lookups (duplicate check, local id) were most of the rest, so keys are
 * now looked up straight from the text (see name-table.ts). Anything this reader does not
 * take for certain (escapes, non-numeric values, duplicate names, other top-level values) it
 * declines, and the caller reads the file with `parseStatsFile`, which decides.
 */
import { grown, hashName, hashSeed, hashStep, NameTable } from './name-table.js';

const quote = 34;
const backslash = 92;
const colon = 58;
const comma = 44;
const openBrace = 123;
const closeBrace = 125;
const minus = 45;
const plus = 43;
const zero = 48;
const nine = 57;
const dot = 46;
const lowerE = 101;
const upperE = 69;
/** Integers up to this many digits are exact when accumulated digit by digit (< 2^53). */
const exactDigits = 15;

// Second results of the scanning functions below, which return a position (-1: declined).
/** Hash (see name-table.ts) of the last name `scanName` read. */
let nameHash = 0;
/** Whether it holds a colon (categories and keys must be namespaced). */
let nameNamespaced = false;
/** Where the last number `readNumber` read ends. */
let numberEnd = 0;
/** Where the last name `scanMemberName` read starts. */
let nameStart = 0;

/**
 * Reads files for one worker and hands out its local key ids: a number per `(category, key)`
 * pair, in the order the pairs are first kept, the same whether a file is read by `read` or
 * through `idOf` from `parseStatsFile`'s result.
 */
export class CanonicalStatsReader {
  /** After a `read` that returned true: the local id of each entry kept, in the file's order. */
  ids = new Int32Array(256);
  /** ... and its value, as `parseStatsFile` keeps it (truncated, finite, non-zero). */
  values = new Float64Array(256);
  count = 0;
  /** `category\u0000key` of each local id, in id order. */
  readonly keyNames: string[] = [];

  private readonly categories = new NameTable();
  /** Keys, scoped by their category's entry in `categories`. */
  private readonly keys = new NameTable();
  /** Per category entry: the read it was last seen in, to decline duplicate categories. */
  private categorySeen = new Int32Array(64);
  /** Per key entry: the category occurrence it was last seen in, to decline duplicate keys. */
  private keySeen = new Int32Array(1024);
  /** Per key entry: its local id, -1 until an entry of it is kept (keys of declined files and
   * zero values hand out none, as when ids were handed out per kept entry). */
  private localIds = new Int32Array(1024).fill(-1);
  private readSerial = 0;
  private categorySerial = 0;
  /** Entries of the file being read whose key has no id yet, `~key entry` in `ids`. */
  private newKeys = 0;

  /**
   * For a file as the game writes it (a `stats` object whose categories and keys are all
   * namespaced and whose values are numbers), fills `ids`, `values` and `count` with each entry
   * `parseStatsFile` would keep, in the file's order, and returns true. Returns false, having
   * handed out no id, for any other content.
   */
  read(text: string): boolean {
    this.count = 0;
    this.readSerial = (this.readSerial + 1) | 0;
    this.newKeys = 0;
    if (!this.scanFile(text)) {
      this.count = 0;
      return false;
    }
    // Ids are handed out once the file is taken, in its order (rarely: keys are mostly known).
    for (let entry = 0; this.newKeys > 0 && entry < this.count; entry++) {
      const key = this.ids[entry]!;
      if (key < 0) {
        this.ids[entry] = this.handOut(~key);
        this.newKeys--;
      }
    }
    return true;
  }

  /** The local id of a pair (for files `read` declined), handed out on first sight. */
  idOf(category: string, key: string): number {
    const categoryHash = hashName(category);
    let categoryEntry = this.categories.find(0, category, 0, category.length, categoryHash);
    if (categoryEntry < 0) categoryEntry = this.addCategory(category, categoryHash);
    const keyHash = hashName(key);
    let keyEntry = this.keys.find(categoryEntry, key, 0, key.length, keyHash);
    if (keyEntry < 0) keyEntry = this.addKey(categoryEntry, key, keyHash);
    const id = this.localIds[keyEntry]!;
    return id >= 0 ? id : this.handOut(keyEntry);
  }

  /** `{"stats": {...}, "DataVersion": 4440}`: exactly one `stats`, other members numbers. */
  private scanFile(text: string): boolean {
    let at = skipSpace(text, 0);
    if (text.charCodeAt(at) !== openBrace) return false;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) === closeBrace) return false;
    let sawStats = false;
    for (;;) {
      at = scanMemberName(text, at);
      if (at < 0) return false;
      const start = nameStart;
      const isStats = at - start === 5 && text.startsWith('stats', start);
      at = skipColon(text, at + 1);
      if (at < 0) return false;
      if (isStats) {
        // JSON.parse would keep the last of two: declined rather than followed.
        if (sawStats) return false;
        at = this.scanCategories(text, at);
        if (at < 0) return false;
        sawStats = true;
      } else {
        if (Number.isNaN(readNumber(text, at))) return false;
        at = numberEnd;
      }
      at = skipSpace(text, at);
      const next = text.charCodeAt(at++);
      if (next === closeBrace) break;
      if (next !== comma) return false;
    }
    return sawStats && skipSpace(text, at) === text.length;
  }

  private scanCategories(text: string, at: number): number {
    if (text.charCodeAt(at) !== openBrace) return -1;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) === closeBrace) return at + 1;
    for (;;) {
      at = scanMemberName(text, at);
      if (at < 0 || !nameNamespaced) return -1;
      const start = nameStart;
      let category = this.categories.find(0, text, start, at, nameHash);
      if (category < 0) category = this.addCategory(text.slice(start, at), nameHash);
      if (this.categorySeen[category] === this.readSerial) return -1;
      this.categorySeen[category] = this.readSerial;
      at = skipColon(text, at + 1);
      if (at < 0) return -1;
      at = this.scanEntries(text, at, category);
      if (at < 0) return -1;
      at = skipSpace(text, at);
      const next = text.charCodeAt(at++);
      if (next === closeBrace) return at;
      if (next !== comma) return -1;
    }
  }

  private scanEntries(text: string, at: number, category: number): number {
    if (text.charCodeAt(at) !== openBrace) return -1;
    at = skipSpace(text, at + 1);
    if (text.charCodeAt(at) === closeBrace) return at + 1;
    this.categorySerial = (this.categorySerial + 1) | 0;
    const serial = this.categorySerial;
    for (;;) {
      at = scanMemberName(text, at);
      if (at < 0 || !nameNamespaced) return -1;
      const start = nameStart;
      let key = this.keys.find(category, text, start, at, nameHash);
      if (key < 0) key = this.addKey(category, text.slice(start, at), nameHash);
      if (this.keySeen[key] === serial) return -1;
      this.keySeen[key] = serial;
      at = skipColon(text, at + 1);
      if (at < 0) return -1;
      const value = readNumber(text, at);
      if (Number.isNaN(value)) return -1;
      at = numberEnd;
      if (value !== 0 && Number.isFinite(value)) {
        if (this.count === this.ids.length) {
          this.ids = grown(this.ids);
          this.values = grown(this.values);
        }
        const id = this.localIds[key]!;
        if (id < 0) this.newKeys++;
        this.ids[this.count] = id >= 0 ? id : ~key;
        // + 0 as parseStatsFile sums: -0 becomes 0.
        this.values[this.count++] = Math.trunc(value) + 0;
      }
      at = skipSpace(text, at);
      const next = text.charCodeAt(at++);
      if (next === closeBrace) return at;
      if (next !== comma) return -1;
    }
  }

  private addCategory(name: string, hash: number): number {
    const entry = this.categories.add(0, name, hash);
    if (entry === this.categorySeen.length) this.categorySeen = grown(this.categorySeen);
    return entry;
  }

  private addKey(category: number, name: string, hash: number): number {
    const entry = this.keys.add(category, name, hash);
    if (entry === this.keySeen.length) {
      this.keySeen = grown(this.keySeen);
      this.localIds = grown(this.localIds).fill(-1, entry);
    }
    return entry;
  }

  private handOut(key: number): number {
    const id = this.keyNames.length;
    this.localIds[key] = id;
    this.keyNames.push(`${this.categories.names[this.keys.scopeOf(key)]}\u0000${this.keys.names[key]}`);
    return id;
  }
}

/**
 * An object member's name, after any spaces at `at`: the position of its closing quote (-1: not
 * a name this reader takes); the name starts at `nameStart`.
 */
function scanMemberName(text: string, at: number): number {
  at = skipSpace(text, at);
  if (text.charCodeAt(at) !== quote) return -1;
  nameStart = at + 1;
  return scanName(text, nameStart);
}

/**
 * The name starting at `at` (after its opening quote): the position of its closing quote, its
 * hash in `nameHash` and whether it is namespaced in `nameNamespaced`; -1 when it holds an
 * escape or a control character (invalid JSON; escapes are left to JSON.parse) or never ends.
 */
function scanName(text: string, at: number): number {
  const end = text.length;
  let hash = hashSeed;
  let namespaced = false;
  for (; at < end; at++) {
    const code = text.charCodeAt(at);
    // Letters and `_` skip the tests below.
    if (code <= backslash) {
      if (code === quote) {
        nameHash = hash;
        nameNamespaced = namespaced;
        return at;
      }
      if (code === backslash || code < 32) return -1;
      if (code === colon) namespaced = true;
    }
    hash = hashStep(hash, code);
  }
  return -1;
}

function skipSpace(text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at);
    if (code === 32 || code === 10 || code === 13 || code === 9) at++;
    else return at;
  }
}

/** Skips `:` and the space around it; -1 when there is no colon. */
function skipColon(text: string, at: number): number {
  at = skipSpace(text, at);
  if (text.charCodeAt(at) !== colon) return -1;
  return skipSpace(text, at + 1);
}

/**
 * A JSON number at `start` (the grammar exactly: no leading zeros, `+` or bare dot), its end in
 * `numberEnd`; else NaN.
 */
function readNumber(text: string, start: number): number {
  let at = start;
  const negative = text.charCodeAt(at) === minus;
  if (negative) at++;
  const digitsStart = at;
  let value = 0;
  let code = text.charCodeAt(at);
  if (code === zero) code = text.charCodeAt(++at);
  else if (code > zero && code <= nine) {
    do {
      value = value * 10 + (code - zero);
      code = text.charCodeAt(++at);
    } while (code >= zero && code <= nine);
  } else return Number.NaN;
  let exact = at - digitsStart <= exactDigits;
  if (code === dot) {
    at = skipDigits(text, at + 1);
    if (at < 0) return Number.NaN;
    code = text.charCodeAt(at);
    exact = false;
  }
  if (code === lowerE || code === upperE) {
    at++;
    const sign = text.charCodeAt(at);
    if (sign === plus || sign === minus) at++;
    at = skipDigits(text, at);
    if (at < 0) return Number.NaN;
    exact = false;
  }
  numberEnd = at;
  // Fractions, exponents and long integers are read as JSON.parse reads them.
  if (!exact) return Number(text.slice(start, at));
  return negative ? -value : value;
}

/** Skips one or more digits; -1 when there is none. */
function skipDigits(text: string, at: number): number {
  const start = at;
  for (let code = text.charCodeAt(at); code >= zero && code <= nine; code = text.charCodeAt(++at));
  return at > start ? at : -1;
}
