/**
 * Side effects the lab can observe: a script call whose input names a file
 * after its own id (`{call_id}`, filled in by the mock as it issues the call)
 * leaves that file in the workspace if, and only if, it ran. The lab lists
 * the workspace as each conversation request arrives and at the session's
 * end; whether a call ran is then read from the disk, not from the wording
 * of its result. The id makes the marker the call's own: a harness that
 * writes files for other reasons (spills, logs) cannot make it by accident,
 * and a broken attempt's call (`_cut1`) has another marker than its retry.
 */
import { isAbsolute, relative } from 'node:path';

/** Characters that end a path inside a command line or JSON text. */
const BOUNDARY = /[\s"'`<>|;&(){}\\,=]/;

/**
 * The workspace path of the file a call's input names after the call's id
 * (relative to the workspace), or null: no such file, or one outside it.
 */
export function markerOf(input: string, id: string, workspace: string | null): string | null {
  const at = input.indexOf(id);
  if (id === '' || at < 0) return null;
  let start = at;
  while (start > 0 && !BOUNDARY.test(input[start - 1] as string)) start--;
  let end = at + id.length;
  while (end < input.length && !BOUNDARY.test(input[end] as string)) end++;
  const named = input.slice(start, end).replace(/^\.\//, '');
  if (!isAbsolute(named)) return named;
  if (workspace === null) return null;
  const inside = relative(workspace, named);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? null : inside;
}

/** What the lab saw of the workspace: the files the harness added (relative paths) as each request arrived (by its record), and at the end. */
export interface WorkspaceObservation<R = unknown> {
  workspace: string;
  atRequest: ReadonlyMap<R, readonly string[]>;
  atEnd: readonly string[];
}

/**
 * Where a marker was first seen: the index of the first conversation request
 * after `from` whose listing had it, 'end' (only at the session's end), or
 * null (never). `listed` is by conversation request (null: not listed).
 */
export function markerSeen(listed: ReadonlyArray<readonly string[] | null>, atEnd: readonly string[], marker: string, from: number): number | 'end' | null {
  for (let i = from + 1; i < listed.length; i++) if (listed[i]?.includes(marker)) return i;
  return atEnd.includes(marker) ? 'end' : null;
}
