/**
 * The evidence of an unwired defense (sql/defense_report.sql): the events at
 * its evaluation point, counted only in the sessions where it was armed.
 */
import { describe, expect, it } from 'vitest';
import { analyzeTraces } from '../../src/analysis/analyze.js';
import { findSection } from '../../src/analysis/report-model.js';
import { ev, line, tempDir, writeTrace } from './fixtures.js';

describe('defense evidence', () => {
  it("counts the events at an unwired defense's evaluation point in the sessions where it was armed, and only there", async () => {
    const stats = (s: string, defense: string, evaluated: number, evaluated_at: string) => ({ ...ev.defenseStats(s, defense, evaluated, 0), evaluated_at });
    const events = [
      ev.sessionStart('a', ['cut_wire', 'turn_watch']), ev.toolCall('a', 'read', 'a1'), ev.toolCall('a', 'read', 'a2'), ev.toolCall('a', 'read', 'a3'),
      ev.modelResponse('a', 'tool_use'), stats('a', 'cut_wire', 0, 'tool_call'), stats('a', 'turn_watch', 0, 'turn_end'),
      ev.sessionStart('b', ['cut_wire']), ev.toolCall('b', 'read', 'b1'), ev.toolCall('b', 'read', 'b2'), stats('b', 'cut_wire', 0, 'tool_call'),
      // not armed here: its calls are not evidence
      ev.sessionStart('c', []), ev.toolCall('c', 'read', 'c1'), ev.modelResponse('c', 'end_turn'),
    ];
    const path = writeTrace(tempDir(), 'trace.jsonl', events.map(line));
    const analysis = await analyzeTraces([path], { cache: { enabled: false } });
    const evidence = (d: string) => findSection(analysis, 'defenses')?.rows.find((r) => r.defense === d)?.evidence;
    expect(evidence('cut_wire')).toBe('wiring broken: its sessions have 5 tool_call events, yet it was never evaluated');
    expect(evidence('turn_watch')).toBe('wiring broken: its sessions have 1 tool-calling model_response event, yet it was never evaluated');
  });

  it('does not call a turn-end defense broken in sessions whose turns never called a tool: a text-only turn reaches no turn end', async () => {
    const stats = { ...ev.defenseStats('t', 'turn_watch', 0, 0), evaluated_at: 'turn_end' };
    const events = [ev.sessionStart('t', ['turn_watch']), ev.modelResponse('t', 'end_turn'), ev.modelResponse('t', 'end_turn'), stats];
    const analysis = await analyzeTraces([writeTrace(tempDir(), 'text.jsonl', events.map(line))], { cache: { enabled: false } });
    const row = findSection(analysis, 'defenses')?.rows.find((r) => r.defense === 'turn_watch');
    expect(row?.evidence).toBe('not reached: its sessions have no tool-calling model_response events, so its code never ran; add a scenario that gets there');
  });

  it('counts only the events a defense judges: a bash guard is "not reached" in a trace without bash, "wiring broken" with bash', async () => {
    const stats = (s: string) => ({ ...ev.defenseStats(s, 'dangerous_command_block', 0, 0), evaluated_at: 'permission', judged_tools: ['bash'] });
    const readsOnly = [ev.sessionStart('r', ['dangerous_command_block']), ev.permission('r', 'read', 'r1', 'allow', 'read_only', false), ev.permission('r', 'write', 'r2', 'allow', 'mode', false), stats('r')];
    const withBash = [ev.sessionStart('b', ['dangerous_command_block']), ev.permission('b', 'read', 'b1', 'allow', 'read_only', false), ev.permission('b', 'bash', 'b2', 'allow', 'mode', false), stats('b')];
    const evidence = async (events: Array<Record<string, unknown>>) => {
      const analysis = await analyzeTraces([writeTrace(tempDir(), 'judged.jsonl', events.map(line))], { cache: { enabled: false } });
      return findSection(analysis, 'defenses')?.rows.find((r) => r.defense === 'dangerous_command_block')?.evidence;
    };
    expect(await evidence(readsOnly)).toBe('not reached: its sessions have no permission_decision (of bash) events, so its code never ran; add a scenario that gets there');
    expect(await evidence(withBash)).toBe('wiring broken: its sessions have 1 permission_decision (of bash) event, yet it was never evaluated');
  });

  it('counts only successes for a defense that judges a tool\'s output', async () => {
    const stats = { ...ev.defenseStats('s', 'spill_read_loop', 0, 0), evaluated_at: 'tool_result', judged_tools: ['read'], judged_outcome: 'success' };
    const events = [ev.sessionStart('s', ['spill_read_loop']), ev.toolFailure('s', 'read', 's1', 'tool_error', 3), ev.toolSuccess('s', 'bash', 's2', 3), stats];
    const analysis = await analyzeTraces([writeTrace(tempDir(), 'outcome.jsonl', events.map(line))], { cache: { enabled: false } });
    expect(findSection(analysis, 'defenses')?.rows.find((r) => r.defense === 'spill_read_loop')?.evidence).toBe(
      'not reached: its sessions have no tool_success (of read) events, so its code never ran; add a scenario that gets there',
    );
  });
});
