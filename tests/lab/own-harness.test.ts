/**
 * The lab against faultline's own harness as an external process: correct,
 * every check is exercised and none fires; with each check's bug switched on
 * (tests/lab/fixtures/own-bugs.ts), exactly that check fires. The process is
 * the bundled fixture (lab-run.ts), pointed at the lab by the environment.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECK_IDS } from '../../src/mock/lab/catalog.js';
import { BUGS } from './fixtures/own-bugs.js';
import { bundleOwnHarness, details, lab, labTasks, ownHarness } from './lab-run.js';

let bundle: { file: string; remove(): void };
beforeAll(async () => {
  bundle = await bundleOwnHarness();
}, 60_000);
afterAll(() => bundle?.remove());

/** The lab task that provokes each bug's check (the task must exercise the check for the bug to show). */
const PROVOKED_BY: Record<string, string> = {
  orphan_tool_use: 'lab-parallel-with-timeout',
  orphan_tool_result: 'lab-parallel-with-timeout',
  duplicate_tool_id: 'lab-parallel-with-timeout',
  split_tool_results: 'lab-parallel-with-timeout',
  assistant_turn_missing: 'lab-empty-output',
  tools_changed: 'lab-max-tokens-mid-tool-use',
  dynamic_prefix: 'lab-empty-output',
  undocumented_schema_keys: 'lab-empty-output',
  strict_schema_invalid: 'lab-empty-output',
  cut_tool_use_executed: 'lab-max-tokens-mid-tool-use',
  retry_after_ignored: 'lab-rate-limited',
  client_error_retried: 'lab-client-error-not-retried',
  unbounded_retries: 'lab-retries-exhausted',
  no_backoff: 'lab-overloaded-then-success',
  transient_not_retried: 'lab-overloaded-then-success',
  empty_tool_result: 'lab-empty-output',
  oversized_tool_result: 'lab-empty-output',
  hallucinated_tool_unanswered: 'lab-hallucinated-tool',
  tools_dropped: 'lab-empty-output',
  tool_results_not_first: 'lab-parallel-reads',
  calls_left_unanswered: 'lab-end-turn-with-tool-call',
  request_after_end: 'lab-empty-output',
  resent_turn_altered: 'lab-parallel-reads',
  history_rewritten: 'lab-hallucinated-tool',
  malformed_arguments_executed: 'lab-malformed-arguments',
  error_result_unflagged: 'lab-parallel-reads',
  oversized_tool_definitions: 'lab-empty-output',
  stall_not_detected: 'lab-stream-stall',
  no_turn_cap: 'lab-no-turn-cap',
  silent_truncation: 'lab-large-file',
};

/**
 * Bugs that show as waiting: their runs get their own --timeout. A turn loop without a cap is stopped by the lab (a
 * short one); a stall is judged once the harness has waited as long as the mock holds it (15 s), so the lab waits longer.
 */
const HANGS: Readonly<Record<string, number>> = { no_turn_cap: 8_000, stall_not_detected: 30_000 };

describe('the lab against faultline\'s own harness', () => {
  it('has a bug switch for every check', () => {
    expect([...BUGS].sort()).toEqual([...CHECK_IDS].sort());
    expect(Object.keys(PROVOKED_BY).sort()).toEqual([...CHECK_IDS].sort());
  });

  it('passes every lab task on the Anthropic wire, with every check exercised and none firing', async () => {
    // Three labs side by side (each its own server and sessions), read as one run.
    const tasks = labTasks();
    const parts = await Promise.all([0, 1, 2].map((k) => lab(ownHarness(bundle.file), tasks.filter((_, i) => i % 3 === k))));
    const sessions = tasks.map((t) => parts.flatMap((p) => p.summary.sessions).find((s) => s.task.id === t.id)!);
    const run = { summary: { ...parts[0]!.summary, sessions }, events: parts.flatMap((p) => p.events), violated: [...new Set(parts.flatMap((p) => p.violated))] };
    expect(details(run).join('\n')).toBe('');
    expect(run.summary.sessions.map((s) => `${s.task.id} ${s.outcome}`)).toEqual(labTasks().map((t) => `${t.id} passed`));
    // faultline lets the model retry a cut-off call, so every session ends as its script says (the first allowed stop).
    expect(run.summary.sessions.map((s) => s.stop)).toEqual(labTasks().map((t) => [t.expect.stop ?? 'end_turn'].flat()[0]));
    const evaluated = new Map(CHECK_IDS.map((id) => [id, run.summary.sessions.reduce((n, s) => n + (s.tallies.find((t) => t.check === id)?.evaluated ?? 0), 0)]));
    expect([...evaluated].filter(([, n]) => n === 0).map(([id]) => id)).toEqual([]);
    // The provider's-side trace: every call settled, durations turn-scoped, one conformance_stats per check per session.
    // A model that never stops: the harness stops at its turn cap with the last turn's calls never sent back.
    const endless = new Set(run.summary.sessions.filter((s) => s.task.id === 'lab-no-turn-cap').map((s) => s.sessionId));
    const counted = run.events.filter((e) => !('session_id' in e) || !endless.has(e.session_id as string));
    const calls = counted.filter((e) => e.event === 'tool_call').length;
    const settled = counted.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure');
    expect(settled).toHaveLength(calls);
    expect(settled.every((e) => 'duration_source' in e && e.duration_source === 'turn')).toBe(true);
    expect(run.events.filter((e) => e.event === 'conformance_stats')).toHaveLength(CHECK_IDS.length * run.summary.sessions.length);
  }, 240_000);

  // Every task on every wire, as each task asks (JSON unless it streams) and with every task streamed: nothing fires.
  it.concurrent.each([
    ['openai', false],
    ['responses', false],
    ['anthropic', true],
    ['openai', true],
    ['responses', true],
    ['gemini', false],
    ['gemini', true],
  ] as const)('passes every lab task on the %s wire too (every task streamed: %s)', async (wire, stream) => {
    // A task whose fault does not exist on this wire (`wires`) is not run on it (Gemini has no unparseable arguments).
    const tasks = labTasks().filter((t) => t.wires === undefined || t.wires.includes(wire));
    const run = await lab(ownHarness(bundle.file, { wire, stream }), tasks);
    expect(details(run).join('\n')).toBe('');
    expect(run.summary.sessions.map((s) => `${s.task.id} ${s.outcome}`)).toEqual(tasks.map((t) => `${t.id} passed`));
    expect([...new Set(run.summary.sessions.flatMap((s) => s.wires))]).toEqual([wire]);
  }, 240_000);

  async function firesExactly(check: string, task: string, wire?: string): Promise<void> {
    const run = await lab(ownHarness(bundle.file, { bug: check, ...(wire ? { wire } : {}) }), labTasks(task), HANGS[check] !== undefined ? { timeoutMs: HANGS[check] } : {});
    expect(run.violated, details(run).join('\n')).toEqual([check]);
    const events = run.events.filter((e) => e.event === 'conformance');
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.event === 'conformance' && e.check_id === check)).toBe(true);
  }

  /** Judged from the waits between attempts: run alone, not beside 36 other harnesses whose load blurs them. */
  const TIMED: ReadonlySet<string> = new Set(['no_backoff']);

  it.concurrent.each(Object.entries(PROVOKED_BY).filter(([check]) => !TIMED.has(check)))('fires exactly %s when its bug is switched on', firesExactly, 120_000);

  // On the Gemini wire the hint is the body's RetryInfo retryDelay, not a header. (The body bugs rewrite Anthropic
  // bodies; a cut call does not exist on this wire: tests/lab/gemini-cli.test.ts sees cut_tool_use_executed fire there.)
  it('fires exactly retry_after_ignored on the Gemini wire when its bug is switched on', () => firesExactly('retry_after_ignored', 'lab-rate-limited', 'gemini'), 120_000);

  // The no_backoff judgement compares retry waits of a few tens of ms with the harness's own turnaround: on a
  // shared 2-core machine one scheduling spike can still read as growth, so one retry is allowed (issue 20 keeps
  // the judgement's robustness open).
  it.each(Object.entries(PROVOKED_BY).filter(([check]) => TIMED.has(check)))('fires exactly %s when its bug is switched on (run alone)', { retry: 1, timeout: 120_000 }, firesExactly);

  /**
   * The rules that exist on the OpenAI wires too (results first, calls left unanswered, a request after the end,
   * the resent history, malformed arguments, oversized definitions, stalls, silent truncation, a turn cap): the same
   * bug, sent as a harness on that wire would send it, fires exactly its check there as well. error_result_unflagged
   * is the Messages API's is_error, with no counterpart on them; and a Responses answer has no stop reason beside its
   * calls (end_turn and tool_use are both `completed`), so the end_turn-with-calls bug cannot happen there.
   */
  const ON_EVERY_WIRE = ['tool_results_not_first', 'calls_left_unanswered', 'request_after_end', 'resent_turn_altered', 'history_rewritten', 'malformed_arguments_executed', 'oversized_tool_definitions', 'stall_not_detected', 'silent_truncation', 'no_turn_cap'];
  it.concurrent.each(ON_EVERY_WIRE.flatMap((check) => (['openai', 'responses'] as const).filter((wire) => !(wire === 'responses' && check === 'calls_left_unanswered')).map((wire) => [check, wire] as const)))('fires exactly %s on the %s wire when its bug is switched on', async (check, wire) => {
    const task = PROVOKED_BY[check]!;
    const run = await lab(ownHarness(bundle.file, { bug: check, wire }), labTasks(task), HANGS[check] !== undefined ? { timeoutMs: HANGS[check] } : {});
    expect(run.violated, details(run).join('\n')).toEqual([check]);
    expect([...new Set(run.summary.sessions.flatMap((s) => s.wires))]).toEqual([wire]);
  }, 120_000);

  /**
   * The same two rules judged by side effects (the *-write tasks): each call writes a file named after its own id, and
   * the lab reads "it ran" from the workspace, not from the result's wording. With the bug on, the file is there and
   * exactly that check fires, naming it; the correct harness passes these tasks in the every-task runs above.
   */
  const BY_SIDE_EFFECT = [['cut_tool_use_executed', 'lab-max-tokens-mid-write'], ['malformed_arguments_executed', 'lab-malformed-write']] as const;
  it.concurrent.each(BY_SIDE_EFFECT.flatMap(([check, task]) => (['anthropic', 'openai', 'responses'] as const).map((wire) => [check, task, wire] as const)))('fires exactly %s on %s (%s wire), judged by the file the call left', async (check, task, wire) => {
    const run = await lab(ownHarness(bundle.file, { bug: check, wire }), labTasks(task));
    expect(run.violated, details(run).join('\n')).toEqual([check]);
    const reason = /the workspace gained (lab-\S+\.txt), the file only this call makes/.exec(details(run).join('\n'));
    expect(reason, details(run).join('\n')).not.toBeNull();
    expect(run.summary.sessions[0]!.workspaceGained).toContain(reason![1]);
  }, 120_000);
});
