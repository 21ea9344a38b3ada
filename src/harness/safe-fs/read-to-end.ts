/**
 * The rest of an open regular file, for a caller that already holds its size from an fstat. Why not
 * readFileSync(fd): it stats the descriptor again (a Buffer result), or reads in 8 KiB steps and once more to
 * see the end (a utf8 result). One read of size + 1 bytes that comes back short is the whole file (a short read
 * of a regular file is its end), so a small file costs one syscall; a file that grew since the stat is read on
 * to its new end.
 */
import { readSync } from 'node:fs';

/** Reads `fd` from its current position to the end; `size` is what fstat said (a hint, not a limit). */
export function readToEndSync(fd: number, size: number): Buffer {
  // Not from the shared pool: a caller may keep the bytes (a snapshot), and a pooled slice would keep its whole slab.
  let buffer = Buffer.allocUnsafeSlow(size + 1);
  let filled = 0;
  for (;;) {
    if (filled === buffer.length) {
      const bigger = Buffer.allocUnsafeSlow(buffer.length * 2);
      buffer.copy(bigger, 0, 0, filled);
      buffer = bigger;
    }
    const want = buffer.length - filled;
    const got = readSync(fd, buffer, filled, want, null);
    filled += got;
    if (got < want) break;
  }
  return buffer.subarray(0, filled);
}
