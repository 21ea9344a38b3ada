/**
 * An edit (a rewrite-only tool) in a workspace with no git directory skips
 * the git-state walk after it (sandbox/git-state-rewrite.ts). What must
 * still be caught: an edit of a `.git` FILE pointing it at a git directory
 * the walk before never saw (one under node_modules, which the walk does not
 * enter) whose hook then counts as new; and an edit of an existing hook
 * once any git directory is there. Every rule and safety step is off except
 * the git-state layer, so each edit really runs.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import { runTurnCalls } from '../../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import { RULE_SWITCHES, setRulesOff } from '../../src/harness/permissions/rule-switches.js';
import type { ChainStep } from '../../src/harness/permissions/types.js';
import { DISABLED_SUFFIX } from '../../src/harness/sandbox/git-state.js';
import { noSandbox } from '../../src/harness/sandbox/sandbox.js';
import { builtinTools } from '../../src/harness/tools/builtin.js';
import { ToolRegistry } from '../../src/harness/tools/registry.js';

const SAFETY_STEPS: ChainStep[] = ['deny_rules', 'dangerous_command', 'protected_paths', 'path_validation', 'tool_check', 'denial_fuse'];
const made: string[] = [];
afterEach(() => {
  setRulesOff([]);
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
});

function workspace(): string {
  const ws = realpathSync(mkdtempSync(join(tmpdir(), 'git-rewrite-')));
  made.push(ws);
  return ws;
}

/** A git directory shaped as git sees one (HEAD, objects/, refs/) with an executable hook. */
function gitDirWithHook(dir: string): string {
  mkdirSync(join(dir, 'objects'), { recursive: true });
  mkdirSync(join(dir, 'refs'));
  mkdirSync(join(dir, 'hooks'));
  writeFileSync(join(dir, 'HEAD'), 'ref: refs/heads/main\n');
  const hook = join(dir, 'hooks', 'pre-commit');
  writeFileSync(hook, '#!/bin/sh\ntrue\n');
  chmodSync(hook, 0o755);
  return hook;
}

async function edit(ws: string, input: Record<string, unknown>): Promise<string> {
  setRulesOff(RULE_SWITCHES.filter((r) => r !== 'git_state')); // the layer under test stays on
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'security').session('s', 'git-rewrite');
  const pipeline = createSessionServices({ workspace: ws, mode: 'bypass', headless: true, homeDir: ws, sandbox: noSandbox(process.env) });
  (pipeline.permissions!.config as { skipSteps?: ReadonlySet<ChainStep> }).skipSteps = new Set(SAFETY_STEPS);
  const results = await runTurnCalls([{ type: 'tool_use', id: 'toolu_1', name: 'edit', input }], 1, {
    registry: new ToolRegistry(builtinTools()), emitter, workspace: ws, signal: new AbortController().signal, defaultTimeoutMs: 30_000, pipeline,
  });
  const content = results[0]?.content;
  return typeof content === 'string' ? content : JSON.stringify(content ?? '');
}

describe('git state around an edit', () => {
  it('an edit of a `.git` file that points it at an unseen git directory: its hook is disabled', async () => {
    const ws = workspace();
    const hook = gitDirWithHook(join(ws, 'node_modules', 'pkg', 'g'));
    mkdirSync(join(ws, 'sub'));
    writeFileSync(join(ws, 'sub', '.git'), 'gitdir: /nonexistent\n');
    const out = await edit(ws, { file_path: 'sub/.git', old_string: '/nonexistent', new_string: '../node_modules/pkg/g' });
    expect(readFileSync(join(ws, 'sub', '.git'), 'utf8')).toBe('gitdir: ../node_modules/pkg/g\n');
    expect(existsSync(hook)).toBe(false);
    expect(existsSync(hook + DISABLED_SUFFIX)).toBe(true);
    expect(out).toContain('disabled the git hook');
  });

  it('an edit of an existing hook in a git directory of the workspace: the changed hook is disabled', async () => {
    const ws = workspace();
    const hook = gitDirWithHook(join(ws, 'repo.git'));
    const out = await edit(ws, { file_path: 'repo.git/hooks/pre-commit', old_string: 'true', new_string: 'touch /tmp/x' });
    expect(existsSync(hook)).toBe(false);
    expect(readFileSync(hook + DISABLED_SUFFIX, 'utf8')).toContain('touch /tmp/x');
    expect(out).toContain('disabled the git hook');
  });

  it('an edit of a plain file in a workspace without git: done, nothing to undo', async () => {
    const ws = workspace();
    writeFileSync(join(ws, 'notes.txt'), 'Helo\n');
    const out = await edit(ws, { file_path: 'notes.txt', old_string: 'Helo', new_string: 'Hello' });
    expect(out).toMatch(/^Edited "notes.txt"/);
    expect(readFileSync(join(ws, 'notes.txt'), 'utf8')).toBe('Hello\n');
  });
});
