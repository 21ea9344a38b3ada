/**
 * The report over a run of the whole fault catalog (suites/faults): the
 * zero-trigger triage shows every class at least once — the green-but-broken
 * group stages each — every shipped defense fires, and the green-but-broken
 * integrity checks and findings show the forms docs/harness-rules.md#green-but-broken says pass every test.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection, type Analysis } from '../../src/analysis/report-model.js';
import { JsonlSink } from '../../src/events/index.js';
import { ShippedDefense } from '../../src/events/labels.js';
import { findings } from '../../src/report/findings.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-faults-report-'));
const source = mockModelSource();
let analysis: Analysis;
let failed: string[];

beforeAll(async () => {
  const trace = join(dir, 'faults.jsonl');
  const sink = new JsonlSink(trace);
  const summary = await runSuite({ tasks: loadSuites([join(import.meta.dirname, '../../suites/faults')]), sink, source, concurrency: 4 });
  sink.close();
  failed = summary.outcomes.filter((o) => o.outcome !== 'passed').map((o) => o.task.id);
  analysis = await analyzeTraces([trace]);
}, 300_000);
afterAll(async () => {
  await source.close();
  rmSync(dir, { recursive: true, force: true });
});

const defenses = () => findSection(analysis, 'defenses')?.rows ?? [];

describe('the report over a run of suites/faults', () => {
  it('comes from a run in which every scenario passed', () => {
    expect(failed).toEqual([]);
  });

  it('shows every zero-trigger triage class, each with its evidence', () => {
    const classes = new Map(defenses().map((r) => [r.defense, r.triage]));
    expect(new Set(classes.values())).toEqual(new Set(['firing', 'unreached', 'unwired', 'disarmed', 'unknown']));
    expect(classes.get('gbb_unwired_watchdog')).toBe('unwired');
    expect(classes.get('gbb_dead_trigger')).toBe('unreached');
    expect(classes.get('gbb_blind_deferred_call')).toBe('unreached');
    expect(classes.get('gbb_switched_off')).toBe('disarmed');
    expect(classes.get('gbb_named_only')).toBe('unknown');
    const evidence = (name: string) => defenses().find((r) => r.defense === name)?.evidence;
    expect(evidence('gbb_unwired_watchdog')).toMatch(/^wiring broken: its sessions have \d+ tool_success\/tool_failure events, yet it was never evaluated$/);
    expect(evidence('gbb_named_only')).toBe('armed in 1 session, but the harness does not implement it: a name with no code behind it');
    expect(evidence('gbb_dead_trigger')).toBe('evaluated 2 times in 1 session, never fired: add a scenario that must trigger it');
  });

  it('shows every shipped defense firing: no shipped name is unimplemented or unreached', () => {
    for (const name of ShippedDefense.options) expect(defenses().find((r) => r.defense === name)?.triage, name).toBe('firing');
  });

  it('shows the judged-vs-triggered mismatch, the lost call and each integrity check', () => {
    expect(defenses().find((r) => r.defense === 'gbb_failed_call_counter')?.triggers_match_stats).toBe(false);
    expect(findSection(analysis, 'integrity')?.rows[0]).toEqual({
      batches_with_identical_durations: 1,
      sessions_with_prefix_changes: 1,
      tool_sets_with_differing_definitions: 1,
      sessions_with_prefix_collisions: 1,
    });
    const text = findings(analysis).map((f) => f.text);
    expect(text).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tool read: lost = 1 /),
        expect.stringMatching(/^defense gbb_failed_call_counter: 1 trigger event but defense_stats counts a different number/),
        expect.stringMatching(/^defense gbb_named_only: unknown — armed in 1 session/),
        expect.stringMatching(/^1 parallel batch where 3 or more calls report the very same duration/),
        expect.stringMatching(/^1 session whose request prefix .* changed between turns/),
        expect.stringMatching(/^1 tool set sent with different tools-payload sizes/),
        expect.stringMatching(/^1 session where a resident and a deferred tool share a 4\+ character prefix/),
      ]),
    );
  });

  it('keeps success rates apart by denominator, so refusals do not read as a broken tool', () => {
    const bash = findSection(analysis, 'tool_funnel')?.rows.find((r) => r.tool === 'bash');
    // Refusals never ran the tool: they lower the rate over calls, not the ones over executed calls.
    expect(bash?.success_rate_of_calls).toBeLessThan(((bash?.successes as number) / (bash?.executed as number)) as number);
    expect(bash?.exception_rate_of_executed).toBe(0);
  });
});
