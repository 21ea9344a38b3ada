/**
 * A defense judges only part of its evaluation point's events (the bash
 * guard: bash permission checks; spill_read_loop: reads that produced
 * output; a user's defense that declares `judges`). Real runs of the
 * harness: in a session with neither bash nor read the report triages
 * those defenses "not reached" (suites/controls/defense-triage-lookalikes.yaml),
 * never the error "wiring broken"; the same scoped defense unwired in a
 * session that ran bash is "wiring broken" (gbb-007 in suites/faults).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection, type Analysis } from '../../src/analysis/report-model.js';
import { JsonlSink } from '../../src/events/index.js';
import { findings } from '../../src/report/findings.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';
import { tempDir } from '../analysis/fixtures.js';

const root = join(import.meta.dirname, '../..');
const source = mockModelSource();
afterAll(() => source.close());

async function runAndAnalyze(file: string, only?: string): Promise<{ analysis: Analysis; outcomes: string[] }> {
  const trace = join(tempDir(), 'run.jsonl');
  const sink = new JsonlSink(trace);
  const tasks = loadSuites([join(root, file)]).filter((t) => only === undefined || t.id === only);
  const summary = await runSuite({ tasks, sink, source });
  sink.close();
  return { analysis: await analyzeTraces([trace], { cache: { enabled: false } }), outcomes: summary.outcomes.map((o) => o.outcome) };
}

const row = (analysis: Analysis, d: string) => findSection(analysis, 'defenses')?.rows.find((r) => r.defense === d);

describe('triage of defenses that judge part of their point', () => {
  let control: Awaited<ReturnType<typeof runAndAnalyze>>;
  beforeAll(async () => {
    control = await runAndAnalyze('suites/controls/defense-triage-lookalikes.yaml');
  }, 60_000);

  it('says "not reached" for the bash guard, the read-spill guard and a scoped user defense in a session with neither bash nor read', () => {
    expect(control.outcomes).toEqual(['passed']);
    expect(row(control.analysis, 'dangerous_command_block')).toMatchObject({ triage: 'unwired', evidence: expect.stringMatching(/^not reached: its sessions have no permission_decision \(of bash\) events/) });
    expect(row(control.analysis, 'spill_read_loop')).toMatchObject({ triage: 'unwired', evidence: expect.stringMatching(/^not reached: its sessions have no tool_success \(of read\) events/) });
    expect(row(control.analysis, 'gbb_scoped_bash_watch')).toMatchObject({ triage: 'unwired', evidence: expect.stringMatching(/^not reached: its sessions have no tool_success\/tool_failure \(of bash\) events/) });
  });

  it('gives no error-level finding about wiring on that healthy trace', () => {
    const errors = findings(control.analysis).filter((f) => f.level === 'error').map((f) => f.text);
    expect(errors.filter((t) => /wiring|never evaluated/.test(t))).toEqual([]);
  });

  it('still says "wiring broken" when the scoped defense is unwired in a session that ran bash', async () => {
    const fault = await runAndAnalyze('suites/faults/green-but-broken/defense-triage.yaml', 'gbb-007-scoped-defense-unwired');
    expect(fault.outcomes).toEqual(['passed']);
    expect(row(fault.analysis, 'gbb_scoped_bash_watch')?.evidence).toBe('wiring broken: its sessions have 1 tool_success/tool_failure (of bash) event, yet it was never evaluated');
  }, 60_000);
});
