/**
 * Facts frozen into the system prompt at session start (docs/harness-rules.md#fact-source-conflict): the
 * prompt must stay byte-identical across turns for the prompt cache (docs/harness-rules.md#stable-prefix),
 * so such a fact goes stale as the session works. The live value is never
 * written back into the system prompt; fact_source_conflict tells the model
 * in a user-side reminder instead.
 *
 * The probe runs through the session's command sandbox (the workspace is
 * the model's to write, and git reads its config from it) with git's
 * program-running settings switched off.
 */
import { spawn } from 'node:child_process';
import type { CommandSandbox } from '../sandbox/sandbox.js';
import type { FrozenSnapshot } from '../defenses/types.js';

export const SNAPSHOT_NAMES = ['git_status'] as const;
export type SnapshotName = (typeof SNAPSHOT_NAMES)[number];

const PROBES: Record<SnapshotName, { title: string; command: string }> = {
  git_status: {
    title: 'gitStatus',
    command:
      'GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null git -c core.fsmonitor=false -c core.untrackedCache=false -c core.hooksPath=/dev/null --no-optional-locks status --short',
  },
};

const PROBE_TIMEOUT_MS = 10_000;

function runProbe(command: string, workspace: string, sandbox: CommandSandbox): Promise<string | null> {
  return new Promise((resolve) => {
    const { file, args, env } = sandbox.spawnArgs(command, workspace);
    const child = spawn(file, args, { cwd: workspace, env: env ?? process.env, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), PROBE_TIMEOUT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk.length + out.length > 100_000 ? '' : chunk));
    child.on('error', () => resolve(null));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code === 0 ? out : null);
    });
  });
}

/** Reads each named fact now; the returned snapshots can read their live value again later. */
export async function captureSnapshots(names: readonly SnapshotName[], workspace: string, sandbox: CommandSandbox): Promise<FrozenSnapshot[]> {
  const out: FrozenSnapshot[] = [];
  for (const name of names) {
    const probe = PROBES[name];
    const read = () => runProbe(probe.command, workspace, sandbox);
    const value = await read();
    if (value === null) throw new Error(`system_snapshot ${name}: the probe failed in the workspace (is it a git repository?)`);
    out.push({ name, value, read });
  }
  return out;
}

/** The system prompt block for the frozen facts, worded as Claude Code words its gitStatus block. */
export function snapshotsSystemText(snapshots: readonly FrozenSnapshot[]): string {
  return snapshots
    .map((s) => {
      const title = PROBES[s.name as SnapshotName]?.title ?? s.name;
      return `${title}: this is the value at the start of the session. It is a snapshot in time and will not update during the session.\n${s.value.trimEnd() || '(clean)'}`;
    })
    .join('\n\n');
}
