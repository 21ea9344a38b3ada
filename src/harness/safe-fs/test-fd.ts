/** Descriptor checks for the safe-fs tests (imported only by *.test.ts). */
import { fstatSync } from 'node:fs';

/** Whether `fd` is an open descriptor of this process. */
export function isOpen(fd: number): boolean {
  try {
    fstatSync(fd);
    return true;
  } catch {
    return false;
  }
}
