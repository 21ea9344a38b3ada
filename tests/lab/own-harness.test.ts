/**
 * The lab against faultline's own harness as an external process: correct,
 * every check is exercised and none fires, and the provider's-side trace is
 * whole. Each check's bug switched on, on every wire, JSON and SSE, is
 * tests/lab/own-matrix.test.ts. The process is the bundled fixture
 * (lab-run.ts), pointed at the lab by the environment.
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

  // Every check × every wire where its rule exists × JSON and SSE, with its one bug on and with every bug off:
  // tests/lab/own-matrix.test.ts (the matrix as data, a missing cell a failure).

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
