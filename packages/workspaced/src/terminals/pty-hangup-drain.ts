/**
 * @module The last output of a program that just exited. When the PTY's last writer closes,
 * libuv reports EOF after a short read without reading again (the POLLHUP shortcut in
 * uv__stream_io), while the kernel may still hold the program's last bytes: node-pty then drops
 * them (microsoft/node-pty#72). A program that prints over 4 KB and exits lost its tail in most
 * runs here. Reading the master once more after that EOF returns them: Linux flushes pending
 * input before it answers EIO.
 */
import { readSync } from 'node:fs';
import type { IPty } from 'node-pty';

/** node-pty's UnixTerminal keeps these private; without them nothing is drained. */
interface UnixTerminalInternals {
  _socket?: { once(event: 'end', listener: () => void): unknown };
  _fd?: number;
}

/** Bounds the reads after EOF (no writer is left by then, so the kernel holds at most ~64 KB). */
const maxReadsAfterHangup = 64;

/** Passes to `onData` what the kernel still held when the PTY reported its end. */
export function drainAfterHangup(pty: IPty, onData: (chunk: Buffer) => void): void {
  const { _socket: socket, _fd: fd } = pty as unknown as UnixTerminalInternals;
  if (!socket || typeof fd !== 'number') return;
  // node-pty announces the exit only after this socket closes, so these bytes come first.
  socket.once('end', () => {
    const buffer = Buffer.allocUnsafe(64 * 1024);
    for (let reads = 0; reads < maxReadsAfterHangup; reads++) {
      let bytes: number;
      try {
        bytes = readSync(fd, buffer);
      } catch {
        return; // EIO: everything was read; EAGAIN: nothing is pending.
      }
      if (bytes === 0) return;
      onData(Buffer.from(buffer.subarray(0, bytes)));
    }
  });
}
