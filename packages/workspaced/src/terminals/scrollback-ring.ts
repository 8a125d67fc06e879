/**
 * @module The last N bytes a terminal printed (1 MiB by default), replayed to every client that
 * (re)connects. Kept as the chunks the PTY produced, trimmed from the front, so appending is
 * O(1) and nothing is copied until a replay asks for the whole.
 */
export const defaultScrollbackBytes = 1024 * 1024;

export class ScrollbackRing {
  private chunks: Buffer[] = [];
  private size = 0;

  constructor(readonly capacity = defaultScrollbackBytes) {}

  get byteLength(): number {
    return this.size;
  }

  append(chunk: Buffer): void {
    if (chunk.length >= this.capacity) {
      this.chunks = [Buffer.from(chunk.subarray(chunk.length - this.capacity))];
      this.size = this.capacity;
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.capacity) {
      const first = this.chunks[0]!;
      const excess = this.size - this.capacity;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  /** The last `bytes` bytes (or fewer), e.g. what a screen shows now. */
  tail(bytes: number): Buffer {
    const parts: Buffer[] = [];
    let size = 0;
    for (let i = this.chunks.length - 1; i >= 0 && size < bytes; i--) {
      const chunk = this.chunks[i]!;
      const part = chunk.length > bytes - size ? chunk.subarray(chunk.length - (bytes - size)) : chunk;
      parts.unshift(part);
      size += part.length;
    }
    return Buffer.concat(parts, size);
  }

  snapshot(): Buffer {
    return Buffer.concat(this.chunks, this.size);
  }
}
