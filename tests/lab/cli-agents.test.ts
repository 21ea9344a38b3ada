/**
 * The lab against a real CLI agent, unchanged, offline: Qwen Code 0.15.10
 * (pinned exact; the last release for Node 20) on the Chat
 * Completions wire, pointed at the lab by OPENAI_BASE_URL, in a HOME of its
 * own. Every verdict pinned below was confirmed by reading the recorded
 * requests (see the comments). Qwen Code opens each conversation with its own
 * canned assistant turn ("Got it. Thanks for the context!"): the script still
 * plays from turn 1, faults included.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceCheck, TurnStop } from '../../src/events/labels.js';
import { installCli } from '../helpers/cli-install.js';
import { details, lab, labTasks, ROOT } from './lab-run.js';

/**
 * Installed from the npm registry into the test install cache, not a
 * devDependency: its optional clipboard packages for other platforms are not
 * all published, so a lock file holding it cannot be `npm ci`ed everywhere.
 */
const QWEN_VERSION = '0.15.10';
let QWEN = '';
const HOME = join(ROOT, '.vitest-tmp', `qwen-home-${process.pid}`);
beforeAll(async () => {
  QWEN = (await installCli('@qwen-code/qwen-code', QWEN_VERSION)).bin('qwen');
}, 300_000);
afterAll(() => {
  rmSync(HOME, { recursive: true, force: true });
});

/** Qwen Code sends zod's `$schema` in every tool schema (156 bytes a request). */
const ALWAYS: ConformanceCheck[] = ['undocumented_schema_keys'];

const FINDINGS: Array<[string, TurnStop, ConformanceCheck[]]> = [
  ['lab-parallel-reads', 'end_turn', []],
  // Two 529s without a hint: the OpenAI SDK inside waits ~0.4 s, then ~0.8 s (it grows with the attempt).
  ['lab-overloaded-then-success', 'end_turn', []],
  // The stream breaks inside the second call's arguments: one request, then exit 1, no retry.
  ['lab-stream-cut-mid-tool-use', 'model_error', ['transient_not_retried']],
  // 'Tool "find_config_file" not found in registry...': an error answer, then it reads app.toml as the script asks.
  ['lab-hallucinated-tool', 'end_turn', []],
  // The call that came with end_turn is run and answered.
  ['lab-end-turn-with-tool-call', 'end_turn', []],
  // It repairs '{"path": "." "depth": 1}' and runs list_directory, whose answer is an error ("Path must be absolute: .").
  ['lab-malformed-arguments', 'end_turn', []],
];

describe('the lab against a real CLI agent', () => {
  it(`finds in Qwen Code ${QWEN_VERSION} what its recorded requests show`, async () => {
    mkdirSync(HOME, { recursive: true });
    const command = ['env', `HOME=${HOME}`, process.execPath, QWEN, '--yolo', '--auth-type', 'openai', '-m', 'lab-model', '{prompt}'];
    const run = await lab(command, labTasks(...FINDINGS.map(([task]) => task)), { timeoutMs: 90_000 });
    const seen = run.summary.sessions.map((s): [string, TurnStop, ConformanceCheck[]] => [s.task.id, s.stop, s.tallies.filter((t) => t.violations.length > 0 && !ALWAYS.includes(t.check)).map((t) => t.check)]);
    expect(seen, details(run).join('\n')).toEqual(FINDINGS);
    // Its canned assistant turn never shifted the script: each completed session answered every scripted turn from turn 1.
    expect(run.summary.sessions.filter((s) => s.stop === 'end_turn').every((s) => s.scriptCompleted && s.turns === s.scriptTurns)).toBe(true);
    expect(run.summary.sessions.flatMap((s) => s.wires).every((w) => w === 'openai')).toBe(true);
  }, 600_000);
});
