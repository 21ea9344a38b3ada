/**
 * Test helper: `faultline lab` run as its own process over a real CLI agent,
 * inside a network namespace with nothing but loopback where the machine
 * allows it (`unshare -rn`: the lab and every process of the agent can reach
 * 127.0.0.1 and nothing else, so an agent that calls home fails instead of
 * leaving the machine). Returns the lab's JSON verdict, its one-line session
 * reasons (the progress lines on stderr) and the requests as recorded.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '../..');

/** Whether `unshare -rn` (an unprivileged user + network namespace) works here, with its loopback brought up. */
export function loopbackOnlyWorks(): boolean {
  try {
    execFileSync('unshare', ['-rn', 'sh', '-c', 'ip link set lo up'], { stdio: 'ignore', timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
}

export interface LabJsonSession {
  task_id: string;
  outcome: string;
  stop: string;
  turns: number;
  script_turns: number;
  timed_out: boolean;
  script_completed: boolean;
  exit_code: number | null;
  /** The files the agent added to its workspace by the session's end (the lab's side-effect evidence). */
  workspace_gained: string[];
  checks: Array<{ check: string; evaluated: number; violations: Array<{ detail: string; turn?: number }> }>;
}

export interface RecordedLine {
  task_id: string;
  seq: number;
  wire: string;
  turn: number | null;
  attempt: number;
  status: number;
  side: string | null;
  fault: Record<string, unknown> | null;
  received_ms: number;
  answered_ms: number | null;
  /** The files the agent had added to its workspace when this request arrived. */
  workspace_gained: string[];
  body: string;
}

export interface AgentLabRun {
  sessions: LabJsonSession[];
  /** The lab's one-line account of each session, by task id (what ended it, in words). */
  lines: Map<string, string>;
  requests: RecordedLine[];
  isolated: boolean;
  durationMs: number;
}

/** Runs `faultline lab --json` over `tasks` with `command` as the harness; `dir` holds the trace and the requests. */
export async function labProcess(options: { tasks: string[]; command: string[]; timeoutS: number; dir: string; isolate: boolean; env?: NodeJS.ProcessEnv }): Promise<AgentLabRun> {
  mkdirSync(options.dir, { recursive: true });
  const trace = join(options.dir, 'lab.jsonl');
  const lab = [process.execPath, '--import', 'tsx', join(ROOT, 'src/cli/bin.ts'), 'lab', '--json', '--suite', join(ROOT, 'suites/lab/protocol.yaml'), ...options.tasks.flatMap((t) => ['--task', t]), '--timeout', String(options.timeoutS), '--out', trace, '--', ...options.command];
  const [program, ...args] = options.isolate ? ['unshare', '-rn', 'sh', '-c', 'ip link set lo up && exec "$@"', 'sh', ...lab] : lab;
  const started = performance.now();
  const child = spawn(program as string, args, { cwd: ROOT, env: { PATH: process.env['PATH'] ?? '', TMPDIR: process.env['TMPDIR'] ?? '/tmp', ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0 && code !== 1) throw new Error(`faultline lab exited ${code}\n${stderr.slice(-3000)}`);
  const verdict = JSON.parse(stdout) as { sessions: LabJsonSession[]; requests: string };
  const lines = new Map<string, string>();
  for (const line of stderr.split('\n')) {
    const match = /^\[\d+\/\d+\]\s+\S+\s+(\S+)\s+(.*)$/.exec(line);
    if (match) lines.set(match[1] as string, match[2] as string);
  }
  const requests = readFileSync(verdict.requests, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedLine);
  return { sessions: verdict.sessions, lines, requests, isolated: options.isolate, durationMs: performance.now() - started };
}

/** The checks with violations in a session, minus those every request of the agent carries. */
export function fired(session: LabJsonSession, always: readonly string[]): string[] {
  return session.checks.filter((c) => c.violations.length > 0 && !always.includes(c.check)).map((c) => c.check);
}
