/**
 * Binary-file detection shared by read and grep: a NUL byte in the first 8,000
 * bytes (the same heuristic as git and GNU grep). Text for the model must be
 * text; a binary dump only burns context.
 */
import { readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export const SNIFF_BYTES = 8000;

export function isBinaryBuffer(buffer: Uint8Array): boolean {
  return buffer.subarray(0, SNIFF_BYTES).includes(0);
}

export async function looksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    return await handleLooksBinary(handle);
  } finally {
    await handle.close();
  }
}

/** The same sniff on a file already open (the read tool reads what it checked, not the name again). */
export async function handleLooksBinary(handle: FileHandle): Promise<boolean> {
  const buffer = Buffer.alloc(SNIFF_BYTES);
  const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
  return isBinaryBuffer(buffer.subarray(0, bytesRead));
}

/**
 * Where sniffFd reads: one buffer per thread. Why: a fresh Buffer of 8,000 bytes is past the pool's size, so
 * each read call made a new ArrayBuffer (8 KB of memory outside the heap, and its tracking in each young
 * collection) only to decode it and drop it.
 */
const sniffed = Buffer.allocUnsafeSlow(SNIFF_BYTES);

/**
 * The same sniff on a descriptor, synchronously (a read of 8,000 bytes: no thread-pool round trip), keeping what it read: `whole` is the file's every byte when the read came back short (a short
 * read of a regular file is its end), so a caller reading a small file needs no second read; null otherwise.
 * `whole` is a view of a buffer the next sniffFd overwrites: use it before any await or other sniff, never keep it.
 */
export function sniffFd(fd: number): { binary: boolean; whole: Buffer | null } {
  const bytesRead = readSync(fd, sniffed, 0, SNIFF_BYTES, 0);
  const read = sniffed.subarray(0, bytesRead);
  return { binary: isBinaryBuffer(read), whole: bytesRead < SNIFF_BYTES ? read : null };
}
