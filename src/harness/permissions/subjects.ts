/**
 * PermissionSubject builders for the common tool shapes, so the pipeline does
 * not hand-roll them. Other tools build the plain object themselves.
 */
import type { PermissionSubject } from './types.js';

/** A shell call: the chain parses the command, finds its paths and decides read-only itself. */
export function commandSubject(tool: string, input: unknown, command: string): PermissionSubject {
  return { tool, input, readOnly: false, paths: [], command };
}

/** A file tool reading (read, ls, glob base dir, grep path) or writing (write, edit) the given paths. */
export function fileSubject(tool: string, input: unknown, access: 'read' | 'write', paths: readonly string[]): PermissionSubject {
  return { tool, input, readOnly: access === 'read', paths: paths.map((path) => ({ path, access })) };
}
