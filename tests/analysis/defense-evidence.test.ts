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
});
