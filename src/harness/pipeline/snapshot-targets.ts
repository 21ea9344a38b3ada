/**
 * Which files a mutating call may change, for the snapshot stage: the path
 * fields of file tools (from the permission subject) and, for bash, redirect
 * targets plus the static operands of every non-read-only sub-command (`rm
 * -rf build` -> `build`). A guess that over-includes only costs a copy; the
 * snapshot never decides anything.
 */
import { readOnlyVerdict } from '../permissions/read-only-command.js';
import { analyzeShell } from '../permissions/shell-analysis.js';
import type { Tool } from '../tools/tool.js';
import { permissionSubject } from './permission-subject.js';

export interface SnapshotPlan {
  paths: string[];
  /** What triggered the snapshot, for picking the right one later (docs/harness-rules.md#snapshot): the command, cut. */
  trigger: string;
}

const TRIGGER_CHARS = 200;

/** null when the call cannot change files (read-only tool or read-only command). */
export function snapshotTargets(tool: Tool, input: unknown): SnapshotPlan | null {
  const subject = permissionSubject(tool, input);
  if (subject.command !== undefined) {
    const analysis = analyzeShell(subject.command);
    if (readOnlyVerdict(analysis).readOnly) return null;
    const paths: string[] = [];
    if (analysis.ok) {
      for (const r of analysis.redirects) if (r.access === 'write' && r.target?.value) paths.push(r.target.value);
      for (const cmd of analysis.commands) {
        for (const word of cmd.argv.slice(1)) if (word.value && !word.value.startsWith('-') && !word.glob) paths.push(word.value);
      }
    }
    return { paths, trigger: `${tool.name}: ${subject.command.slice(0, TRIGGER_CHARS)}` };
  }
  if (tool.readOnly) return null;
  const writes = subject.paths.filter((p) => p.access === 'write' && p.path !== null).map((p) => p.path as string);
  return { paths: writes, trigger: `${tool.name}: ${writes.join(', ').slice(0, TRIGGER_CHARS)}` };
}
