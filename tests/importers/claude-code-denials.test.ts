import { describe, expect, it } from 'vitest';
import { permissionDenial } from '../../src/importers/claude-code-transcript.js';
import { FIXTURES, importFixture, jsonReport, rows } from './helpers.js';

const DENIALS = 'claude-code-denials';
const STREAM = 'claude-code-stream/run.stream.jsonl';
const pick = (events: Record<string, unknown>[], event: string, ...keys: string[]) => events.filter((e) => e.event === event).map((e) => keys.map((k) => e[k]));

describe('claude-code importer: permission denials', () => {
  it('makes a denied call a permission_decision deny and a permission_denied failure, not a tool_error; a real failure stays tool_error', async () => {
    const { code, events } = await importFixture('claude-code', DENIALS);
    expect(code).toBe(0);
    expect(pick(events, 'permission_decision', 'tool_use_id', 'tool', 'decision', 'source', 'needed_prompt')).toEqual([
      ['toolu_a', 'Bash', 'deny', 'default', true],
      ['toolu_b', 'Edit', 'deny', 'user', true],
    ]);
    expect(pick(events, 'tool_failure', 'tool_use_id', 'failure_kind', 'duration_ms')).toEqual([
      ['toolu_a', 'permission_denied', null],
      ['toolu_b', 'permission_denied', null],
      ['toolu_c', 'tool_error', 2000],
    ]);
  });

  it('shows the denials in the permission funnel and the failure kinds of a report', async () => {
    const report = await jsonReport([`${FIXTURES}/${DENIALS}`]);
    const funnel = rows(report, 'permission_funnel', 'permission_funnel');
    expect(funnel.map((r) => [r.decision, r.source, r.decisions ?? r.n ?? r.count])).toEqual(expect.arrayContaining([expect.arrayContaining(['deny', 'default']), expect.arrayContaining(['deny', 'user'])]));
    const kinds = rows(report, 'failure_kinds', 'failure_kind_totals').map((r) => [r.failure_kind, r.failures ?? r.n]);
    expect(kinds).toEqual(expect.arrayContaining([['permission_denied', 2], ['tool_error', 1]]));
  });

  it('reads the denial texts Claude Code writes, and nothing else', () => {
    expect(permissionDenial("Claude requested permissions to write to /a, but you haven't granted it yet.", undefined)).toBe('default');
    expect(permissionDenial('x', "Error: Claude requested permissions to use Bash, but you haven't granted it yet.")).toBe('default');
    expect(permissionDenial("The user doesn't want to proceed with this tool use. The tool use was rejected", undefined)).toBe('user');
    expect(permissionDenial('Error: permission denied (EACCES)', 'Error: permission denied')).toBeNull();
  });
});

describe('claude-code importer: --output-format stream-json', () => {
  it('is recognised by content and counts the run from its result line: 24 output tokens, not the stream-start counts', async () => {
    const report = await jsonReport([`${FIXTURES}/${STREAM}`]);
    expect(report.imports[0]).toMatchObject({ format: 'claude-code', records: 8, used: 8, skipped: [], quarantined: 0 });
    expect(rows(report, 'sessions', 'session_summary')[0]).toMatchObject({ input_tokens: 30, output_tokens: 24 });
  });

  it('maps its messages, tool calls, denials and the result line', async () => {
    const { events, stdout } = await importFixture('claude-code', STREAM);
    expect(stdout).not.toContain('warning');
    expect(pick(events, 'model_response', 'turn', 'tool_use_count', 'input_tokens', 'output_tokens')).toEqual([
      [1, 1, 10, null],
      [2, 1, 10, null],
      [3, 0, 10, null],
    ]);
    expect(pick(events, 'permission_decision', 'tool_use_id', 'decision')).toEqual([['toolu_01', 'deny']]);
    expect(pick(events, 'tool_failure', 'tool', 'failure_kind')).toEqual([['Write', 'permission_denied']]);
    expect(pick(events, 'tool_success', 'tool', 'output_bytes')).toEqual([['Read', 12]]);
    expect(events.at(-1)).toMatchObject({ event: 'session_end', turns: 3, input_tokens: 30, output_tokens: 24, cache_read_tokens: 0, duration_ms: 2345, outcome: null });
  });
});

describe('claude-code importer: a line is used whole or quarantined whole', () => {
  it('quarantines a user line with one unpairable tool_result without booking its other result', async () => {
    const { writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { scratch, cli, readEvents } = await import('./helpers.js');
    const dir = scratch();
    const path = join(dir, 's.jsonl');
    const base = { sessionId: 's1', timestamp: '2025-06-01T10:00:00.000Z' };
    const lines = [
      { ...base, type: 'assistant', message: { id: 'm1', role: 'assistant', model: 'm', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: {} }], usage: { input_tokens: 1, output_tokens: 1 } } },
      { ...base, type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }, { type: 'tool_result', tool_use_id: 'nope', content: 'x' }] } },
    ];
    writeFileSync(path, lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const out = join(dir, 'o.jsonl');
    const r = await cli(['import', 'claude-code', path, '--out', out]);
    expect(r.stderr).toContain(`${path}:2: tool_result for tool_use nope, which is not in this transcript`);
    expect(r.stdout).toContain('2 lines = 1 used + 0 skipped + 1 quarantined');
    const events = readEvents(out);
    expect(events.filter((e) => e.event === 'tool_call')).toHaveLength(1);
    expect(events.filter((e) => e.event === 'tool_success' || e.event === 'tool_failure')).toEqual([]);
  });
});
