/** Keys that identify a call and its result exactly, whatever the key order of the input. */
import { createHash } from 'node:crypto';
import { stableStringify } from '../permissions/session-memory.js';

/** tool + input, byte for byte once keys are sorted. */
export function callSignature(tool: string, input: unknown): string {
  return `${tool}\u0000${stableStringify(input)}`;
}

/** A short digest of a result (a long output is not kept in memory for every call). */
export function outputDigest(isError: boolean, output: string): string {
  return output.length <= 256 ? `${isError ? 'E' : 'O'}${output}` : `${isError ? 'E' : 'O'}#${createHash('sha1').update(output).digest('base64')}`;
}
