/**
 * Claude Code 2.1.328 itself, run headless against the loopback mock (see
 * claude-code-run.ts): both records it keeps of the run, its stream-json
 * output and its session transcript, imported and compared with what the
 * script made it do.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp-dirs.js';
import { cli, jsonReport, readEvents, rows, type EventLine } from '../helpers.js';
import { CLAUDE_CODE_VERSION, runClaudeCode, type ClaudeCodeRun } from './claude-code-run.js';

let run: ClaudeCodeRun;
let dir: string;
beforeAll(async () => {
  dir = tempDir('faultline-claude-code-');
  run = await runClaudeCode(dir);
}, 400_000);

const pick = (events: EventLine[], event: string, ...keys: string[]) => events.filter((e) => e.event === event).map((e) => keys.map((k) => e[k]));

async function imported(file: string) {
  const out = join(dir, `${file.split('/').pop()}.events.jsonl`);
  const r = await cli(['import', 'claude-code', file, '--out', out]);
  expect(r.code, r.stderr).toBe(0);
  return { stdout: r.stdout, events: readEvents(out) };
}

/** What every record of the run says, whichever of the two was read. */
function expectTheRun(events: EventLine[]) {
  expect(events.filter((e) => e.event === 'session_start')).toHaveLength(1);
  expect(events.filter((e) => e.event === 'model_request')).toHaveLength(run.modelCalls);
  expect(pick(events, 'model_response', 'turn', 'tool_use_count', 'input_tokens', 'cache_read_tokens')).toEqual([
    [1, 2, 100, 40],
    [2, 1, 150, 60],
    [3, 0, 200, 0],
  ]);
  expect(pick(events, 'tool_call', 'turn', 'tool').sort()).toEqual([[1, 'Read'], [1, 'Read'], [2, 'Write']]);
  expect(pick(events, 'tool_success', 'tool', 'output_bytes')).toEqual([['Read', expect.any(Number)]]);
  // The missing file is the tool's own error; the Write never ran: --allowedTools Read, and nobody to ask.
  expect(pick(events, 'tool_failure', 'tool', 'failure_kind', 'duration_ms').sort()).toEqual([
    ['Read', 'tool_error', expect.any(Number)],
    ['Write', 'permission_denied', null],
  ]);
  // Every call's permission check, as Claude Code recorded it: the two reads by the --allowedTools rule, the write by the unanswered question.
  expect(pick(events, 'permission_decision', 'tool', 'decision', 'source', 'needed_prompt').sort()).toEqual([
    ['Read', 'allow', 'allow_rule', false],
    ['Read', 'allow', 'allow_rule', false],
    ['Write', 'deny', 'default', true],
  ]);
  expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: 3, input_tokens: 450, output_tokens: 40, cache_read_tokens: 100, cache_write_tokens: 30 });
}

describe(`Claude Code ${CLAUDE_CODE_VERSION}, run headless against the mock`, () => {
  it('its stream-json output gives back the run; every line is used, and per-message output tokens are not claimed', { timeout: 120_000 }, async () => {
    const file = join(dir, 'run.stream.jsonl');
    writeFileSync(file, run.stream);
    const lines = run.stream.trim().split('\n').length;
    const { stdout, events } = await imported(file);
    expect(stdout).toContain(`claude-code (1 file): ${lines} lines = ${lines} used + 0 skipped + 0 quarantined`);
    expect(stdout).not.toContain('warning');
    expectTheRun(events);
    // Written as each message starts streaming: its output_tokens are not the final count (the result line has the total).
    expect(pick(events, 'model_response', 'output_tokens')).toEqual([[null], [null], [null]]);
    expect(events.find((e) => e.event === 'session_start')).toMatchObject({ permission_mode: 'default', tools: expect.arrayContaining(['Read', 'Write', 'Bash']) });
  });

  it('its session transcript gives back the run, per-message output tokens included; its other lines are skipped and counted', { timeout: 120_000 }, async () => {
    const { stdout, events } = await imported(run.transcript);
    const m = /claude-code \(1 file\): (\d+) lines = (\d+) used \+ (\d+) skipped \+ (\d+) quarantined/.exec(stdout);
    expect(m, stdout).not.toBeNull();
    const [records, used, skipped, quarantined] = (m as RegExpExecArray).slice(1).map(Number) as [number, number, number, number];
    expect(records).toBe(readEvents(run.transcript).length);
    expect(used + skipped + quarantined).toBe(records);
    expect(quarantined).toBe(0);
    // Used: the opening prompt line, the 4 assistant lines (one per content block) and the 3 tool-result lines.
    expect(used).toBe(8);
    expectTheRun(events);
    expect(pick(events, 'model_response', 'output_tokens', 'stop_class')).toEqual([[20, 'tool_use'], [15, 'tool_use'], [5, 'end_turn']]);
    expect(events.find((e) => e.event === 'session_start')).toMatchObject({ permission_mode: 'default' });
  });

  it('a report of the transcript shows the failure kinds and the permission funnel the run had', { timeout: 120_000 }, async () => {
    const report = await jsonReport(['--format', 'claude-code', run.transcript]);
    const kinds = Object.fromEntries(rows(report, 'failure_kinds', 'failure_kind_totals').map((r) => [r.failure_kind, r.failures ?? r.n]));
    expect(kinds).toMatchObject({ permission_denied: 1, tool_error: 1 });
    expect(rows(report, 'tool_funnel', 'tool_funnel').find((r) => r.tool === '(all tools)')).toMatchObject({ calls: 3, successes: 1, failures: 2, lost: 0 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ sessions_started: 1, input_tokens: 450, output_tokens: 40 });
  });
});
