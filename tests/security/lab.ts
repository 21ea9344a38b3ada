/**
 * The attack lab: one temp root per test holding the workspace (a git
 * repository with hooks), an `outside/` directory with a secret file and a
 * directory the workspace links into, and a throwaway HOME with `.ssh`.
 * Attacks run as real bash tool calls through the real pipeline; afterwards
 * the lab is checked for side effects — never the harness's own verdict.
 *
 * Nothing here can touch the real HOME or anything outside the temp root,
 * even when a rule is switched off or broken: commands run in a bubblewrap
 * "jail" (only the temp root writable, the real home absent, $HOME = the
 * throwaway one), or — on a machine without bubblewrap, never under CI —
 * with $HOME pointed at the throwaway home, and every attack names only lab
 * paths.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import type { PermissionMode } from '../../src/events/labels.js';
import { runTurnCalls } from '../../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import type { ChainStep } from '../../src/harness/permissions/types.js';
import { bwrapArgs } from '../../src/harness/sandbox/bwrap-args.js';
import { bubblewrapProblem, chooseSandbox, noSandbox, type CommandSandbox } from '../../src/harness/sandbox/sandbox.js';
import { bashTool } from '../../src/harness/tools/bash.js';
import { builtinTools } from '../../src/harness/tools/builtin.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';

export interface Lab {
  readonly root: string;
  readonly ws: string;
  readonly out: string;
  readonly home: string;
  /** Marker inside outside/secret.txt: reading it is outside policy except in bypass. */
  readonly outsideMark: string;
  /** Marker inside ~/.ssh/id_rsa: reading it is outside policy in every mode. */
  readonly sshMark: string;
  /** Paths of the canaries and protected files, with their contents before the run. */
  readonly before: ReadonlyMap<string, string>;
}

const GIT_ENV = { ...process.env, HOME: '/nonexistent', GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'lab', GIT_AUTHOR_EMAIL: 'lab@example.invalid', GIT_COMMITTER_NAME: 'lab', GIT_COMMITTER_EMAIL: 'lab@example.invalid' };
const roots: string[] = [];

export function makeLab(setup?: (lab: Omit<Lab, 'before'>) => void): Lab {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-sec-')));
  roots.push(root);
  const ws = join(root, 'ws');
  const out = join(root, 'outside');
  const home = join(root, 'home');
  const id = root.slice(-6);
  const lab = { root, ws, out, home, outsideMark: `OUTSIDE-SECRET-${id}`, sshMark: `SSH-PRIVATE-KEY-${id}` };
  for (const d of [join(out, 'dir'), join(home, '.ssh')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(out, 'secret.txt'), `${lab.outsideMark}\n`);
  writeFileSync(join(out, 'dir', 'keep.txt'), 'keep\n');
  writeFileSync(join(home, '.ssh', 'id_rsa'), `${lab.sshMark}\n`);
  // The repository is made once per test file and copied: three git runs per lab cost more than the attack.
  cpSync(templateRepo(), ws, { recursive: true });
  symlinkSync(join(out, 'dir'), join(ws, 'link'));
  writeFileSync(join(ws, 'a.txt'), 'alpha\nbeta\ngamma\n'); // a change, so `git diff` has something to show
  setup?.(lab);
  return { ...lab, before: snapshot(lab) };
}

let template: string | null = null;

/** A committed repository with a.txt, data.json, src/main.ts and a .git/hooks directory. */
function templateRepo(): string {
  if (template !== null) return template;
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-sec-template-')));
  roots.push(root);
  const ws = join(root, 'ws');
  mkdirSync(join(ws, 'src'), { recursive: true });
  writeFileSync(join(ws, 'a.txt'), 'alpha\nbeta\n');
  writeFileSync(join(ws, 'data.json'), '{"a":1}\n');
  writeFileSync(join(ws, 'src', 'main.ts'), 'export const x = 1;\n');
  execFileSync('git', ['init', '-q', '-b', 'main', ws], { env: GIT_ENV });
  execFileSync('git', ['-C', ws, 'add', '-A'], { env: GIT_ENV });
  execFileSync('git', ['-C', ws, 'commit', '-q', '-m', 'lab'], { env: GIT_ENV });
  mkdirSync(join(ws, '.git', 'hooks'), { recursive: true });
  template = ws;
  return ws;
}

export function removeLabs(): void {
  template = null;
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
}

/** Everything outside the workspace, plus the workspace's protected git files, with contents. */
function snapshot(lab: Omit<Lab, 'before'>): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const n of names) {
      const p = join(dir, n);
      const st = statSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) {
        files.set(p + '/', '');
        walk(p);
      } else if (st) files.set(p, readFileSync(p, 'utf8'));
    }
  };
  walk(lab.out);
  walk(lab.home);
  walk(join(lab.ws, '.git', 'hooks'));
  walk(join(lab.ws, '.husky')); // a hooks directory the repository's config names (catalog: huskyHooks)
  files.set(join(lab.ws, '.git', 'config'), readFileSync(join(lab.ws, '.git', 'config'), 'utf8'));
  return files;
}

/** Side effects outside policy, as sentences; empty when none. */
export function violations(lab: Lab, mode: PermissionMode, output: string): string[] {
  const found: string[] = [];
  const now = snapshot(lab);
  const rel = (p: string) => relative(lab.root, p);
  for (const [p, content] of now) {
    const was = lab.before.get(p);
    if (was === undefined) found.push(`created ${rel(p)}`);
    else if (was !== content) found.push(`changed ${rel(p)}`);
  }
  for (const p of lab.before.keys()) if (!now.has(p)) found.push(`deleted ${rel(p)}`);
  // A secret read: its marker in what the model got, or copied anywhere into the workspace.
  const leaked = (mark: string) => output.includes(mark) || workspaceContains(lab.ws, mark);
  if (leaked(lab.sshMark)) found.push('read ~/.ssh/id_rsa');
  if (mode !== 'bypass' && leaked(lab.outsideMark)) found.push('read outside/secret.txt');
  return found;
}

function workspaceContains(dir: string, mark: string): boolean {
  for (const n of readdirSync(dir)) {
    if (n === '.git') continue;
    const p = join(dir, n);
    // Not through symlinks: a link the attack left behind is not a copy of what it points at.
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (st?.isDirectory()) {
      if (workspaceContains(p, mark)) return true;
    } else if (st?.isFile() && readFileSync(p, 'utf8').includes(mark)) return true;
  }
  return false;
}

/** `none`: no OS sandbox at all (what `--sandbox off` runs), for checks judged after the call on the host. */
export type SandboxUse = 'jail' | 'product' | 'none';

/** bubblewrap is required under CI: its absence is a failure, not a skip. */
export function bwrapOrFail(): boolean {
  const problem = bubblewrapProblem();
  if (problem !== null && process.env.CI) throw new Error(`CI needs bubblewrap for the security tests: ${problem}`);
  return problem === null;
}

/** The jail: a test device, not the product sandbox (kind `none`, so the chain judges as if unsandboxed). */
function jail(lab: Lab): CommandSandbox {
  if (!bwrapOrFail()) return noSandbox({ ...process.env, HOME: lab.home });
  return {
    kind: 'none',
    spawnArgs: (command, cwd) => ({ file: 'bwrap', args: bwrapArgs({ workspace: lab.root, homes: [homedir()], home: lab.home }, command, cwd), env: { ...process.env, HOME: lab.home } }),
  };
}

export interface CallResult {
  readonly decision: string;
  readonly source: string;
  readonly reason: string;
  readonly output: string;
}

/** One bash call through the real pipeline (permission chain, then the real bash tool). */
export async function bashCall(lab: Lab, command: string, mode: PermissionMode, use: SandboxUse, skipSteps: readonly ChainStep[] = []): Promise<CallResult> {
  const sandbox = use === 'jail' ? jail(lab) : use === 'none' ? noSandbox({ ...process.env, HOME: lab.home }) : chooseSandbox('required', { workspace: lab.ws, homeDir: lab.home }).sandbox;
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'security').session('s', 'attack');
  const registry = new ToolRegistry(builtinTools().map((t) => (t.name === 'bash' ? bashTool : t)));
  const pipeline = createSessionServices({ workspace: lab.ws, mode, headless: true, homeDir: lab.home, sandbox });
  if (skipSteps.length > 0) (pipeline.permissions!.config as { skipSteps?: ReadonlySet<ChainStep> }).skipSteps = new Set(skipSteps);
  const results = await runTurnCalls([{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command, timeout_ms: 20_000 } }], 1, {
    registry, emitter, workspace: lab.ws, signal: new AbortController().signal, defaultTimeoutMs: 30_000, pipeline,
  });
  const decision = sink.events().find((e) => e.event === 'permission_decision') as { decision: string; source: string } | undefined;
  const content = results[0]?.content;
  const output = typeof content === 'string' ? content : JSON.stringify(content ?? '');
  return { decision: decision?.decision ?? 'none', source: decision?.source ?? 'none', reason: decision?.decision === 'allow' ? '' : output, output };
}
