/**
 * What a file that is not a regular file is, in words: the read tool and
 * `expect.files` refuse FIFOs and devices (a read would block until someone
 * writes) and say which kind they found.
 */
export function fileKind(stats: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (stats.isFIFO()) return 'named pipe (FIFO)';
  if (stats.isSocket()) return 'socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'device';
  if (stats.isDirectory()) return 'directory';
  return 'special file';
}
