/**
 * @module At most 4 reads of files over 1 MiB at once, per daemon, and 2 per user: a 10 MiB file
 * costs several times its size in memory (bytes, text, JSON body) until its answer has been sent,
 * and 20 concurrent reads took the daemon to 719 MiB; the per-user share keeps one user who never
 * reads the answers from holding every slot. A large read beyond either limit answers 503
 * `TOO_MANY_LARGE_READS` with `Retry-After: 1` at once rather than waiting (a waiting request
 * would hold its connection anyway; the client knows best when to retry). A slot is held until
 * the answer's body has been handed to the client's connection, or the client went away: that is
 * how long its memory lives. Smaller reads are never limited.
 */
import { stat } from 'node:fs/promises';
import { ApiError } from '../http/api-error.js';

interface LargeReadLimits {
  maxConcurrent: number;
  maxPerUser: number;
  /** Files larger than this take a slot. */
  largeBytes: number;
}

const defaultLargeReadLimits: LargeReadLimits = {
  maxConcurrent: 4,
  maxPerUser: 2,
  largeBytes: 1024 * 1024,
};

/** Slices handed to the connection one after the other, each once the previous one was taken. */
const sliceBytes = 64 * 1024;

/**
 * The body in slices, calling `release` once it has been read to its end or cancelled (the client
 * left). Slices, not one chunk: the server then pulls the next only as the connection drains.
 */
function releasedAfter(body: ReadableStream<Uint8Array>, release: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let chunk: Uint8Array = new Uint8Array(0);
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        while (offset >= chunk.length) {
          const { done, value } = await reader.read();
          if (done) {
            release();
            return controller.close();
          }
          chunk = value;
          offset = 0;
        }
        controller.enqueue(chunk.subarray(offset, offset + sliceBytes));
        offset += sliceBytes;
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
}

export class LargeReadLimiter {
  private active = 0;
  private readonly activeByUser = new Map<string, number>();

  constructor(private readonly limits: LargeReadLimits = defaultLargeReadLimits) {}

  /** Answers `respond()`, holding a slot until its body is sent when the file at `real` is large. */
  async run(real: string, userId: string, respond: () => Promise<Response>): Promise<Response> {
    const size = await stat(real).then(
      (stats) => stats.size,
      () => 0, // the read itself answers the error
    );
    if (size <= this.limits.largeBytes) return respond();
    const mine = this.activeByUser.get(userId) ?? 0;
    if (this.active >= this.limits.maxConcurrent || mine >= this.limits.maxPerUser)
      throw new ApiError(
        'TOO_MANY_LARGE_READS',
        mine >= this.limits.maxPerUser
          ? `you already run ${mine} reads of files over ${this.limits.largeBytes} bytes; retry shortly`
          : `${this.active} reads of files over ${this.limits.largeBytes} bytes are running; retry shortly`,
        { limit: this.limits.maxConcurrent, per_user_limit: this.limits.maxPerUser },
        { 'Retry-After': '1' },
      );
    this.active++;
    this.activeByUser.set(userId, mine + 1);
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.active--;
      const left = (this.activeByUser.get(userId) ?? 1) - 1;
      if (left > 0) this.activeByUser.set(userId, left);
      else this.activeByUser.delete(userId);
    };
    try {
      const response = await respond();
      if (!response.body) {
        release();
        return response;
      }
      return new Response(releasedAfter(response.body, release), {
        status: response.status,
        headers: response.headers,
      });
    } catch (error) {
      release();
      throw error;
    }
  }
}
