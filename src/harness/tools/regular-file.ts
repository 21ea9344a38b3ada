/**
 * Reads a file only when it is a regular file. A FIFO (or a device) planted
 * in the workspace blocks a plain read until someone writes to it: a read
 * through the tool, or the harness's own `expect.files` check, would hang
 * the task and, read synchronously, the whole run. Opened non-blocking and
 * checked on the open descriptor, so what is read is what was checked.
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';

export class NotRegularFile extends Error {
  readonly code = 'ENOTREGULAR';
  constructor(readonly path: string, readonly kind: string) {
    super(`${path} is a ${kind}, not a regular file`);
  }
}

export function fileKind(stats: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stats.isFIFO()) return 'named pipe (FIFO)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isDirectory()) return 'directory';
  return 'special file';
}

/** The file's text; throws NotRegularFile for anything but a regular file (never blocks on a FIFO). */
export function readRegularFileSync(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new NotRegularFile(path, fileKind(stats));
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}
