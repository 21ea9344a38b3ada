// Hook module for the streaming retry scenario: each PreToolUse run appends a line to
// hook-runs.log in the workspace — a side effect, like a user's audit log, that shows how
// many times the user's script really ran (the trace's hook events must say the same).
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

export function preToolUse(event) {
  appendFileSync(join(event.workspace, 'hook-runs.log'), `${event.tool} ${event.input?.file_path ?? ''}\n`);
  return {};
}
