/** "The call ran" read from the workspace: a call's own marker file decides, both ways, before any wording. */
import { describe, expect, it } from 'vitest';
import type { MockReply } from '../engine.js';
import type { RecordedRequest } from '../session.js';
import { runChecks } from './run-checks.js';
import { sessionView } from './session-view.js';
import { markerOf } from './side-effects.js';

const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 };
const tools = [{ type: 'function', function: { name: 'write', parameters: { type: 'object' } } }];
const WS = '/tmp/ws-1';

function record(turn: number, messages: object[], said: MockReply): RecordedRequest {
  const at = turn * 1000;
  return { status: 200, turn, request: null, bodyBytes: 0, attempt: 1, receivedAt: at, answeredAt: at + 10, wire: 'openai', method: 'POST', path: '/v1', side: null, said, fault: null, rejected: null, bodyText: JSON.stringify({ model: 'm', messages, tools }) };
}

/** A max_tokens turn whose write (cut off) names its own marker, then the request carrying its result. */
function cutSession(result: string | null) {
  const input = { path: `${WS}/lab-cut-c1.txt`, content: 'x' };
  const first = record(1, [{ role: 'user', content: 'go' }], { turn: 1, content: [{ type: 'tool_use', id: 'c1', name: 'write', input }], stopReason: 'max_tokens', usage, cutToolInput: true, fault: null });
  const call = { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'write', arguments: '{"path":' } }] };
  const answer = result === null ? [{ role: 'user', content: 'go on' }] : [{ role: 'tool', tool_call_id: 'c1', content: result }];
  const second = record(2, [{ role: 'user', content: 'go' }, ...(result === null ? [] : [call]), ...answer], { turn: 2, content: [{ type: 'text', text: 'done' }], stopReason: 'end_turn', usage, cutToolInput: false, fault: null });
  return [first, second];
}

function cutCheck(records: RecordedRequest[], gained: { second: string[]; end: string[] } | null) {
  const workspace = gained && { workspace: WS, atRequest: new Map([[records[0]!, []], [records[1]!, gained.second]]), atEnd: gained.end };
  return runChecks(sessionView(records, { exitCode: 0, timedOut: false, scriptCompleted: true }, workspace ? { workspace } : {})).find((t) => t.check === 'cut_tool_use_executed')!;
}

describe('side effects the lab observes', () => {
  it("finds a call's marker in its input (relative, absolute inside the workspace, in a command line), and nothing else", () => {
    expect(markerOf('{"path":"lab-cut-c1.txt","content":"x"}', 'c1', WS)).toBe('lab-cut-c1.txt');
    expect(markerOf(`{"file_path":"${WS}/notes/lab-c1.txt"}`, 'c1', WS)).toBe('notes/lab-c1.txt');
    expect(markerOf('{"command":"touch ./lab-c1.txt && echo ok"}', 'c1', WS)).toBe('lab-c1.txt');
    expect(markerOf('{"path":"/elsewhere/lab-c1.txt"}', 'c1', WS)).toBeNull();
    expect(markerOf('{"path":"notes.txt"}', 'c1', WS)).toBeNull();
  });

  it('takes the marker as decisive both ways, whatever the result says, and says what it judged by', () => {
    // "Error: (none) ... Exit Code: 0" reads as an error, yet the call's file appeared: it ran.
    const ran = cutCheck(cutSession('Command: write\nError: (none)\nExit Code: 0'), { second: ['lab-cut-c1.txt'], end: ['lab-cut-c1.txt'] });
    expect(ran.violations.map((v) => v.detail)).toEqual([expect.stringContaining('yet it ran: the workspace gained lab-cut-c1.txt, the file only this call makes, before conversation request 2 (turn 2)')]);
    // A result worded as a success, but the file never appeared: it did not run.
    expect(cutCheck(cutSession('Done.'), { second: [], end: [] })).toMatchObject({ evaluated: 1, violations: [] });
    // Without the workspace observed, the same result is judged by its wording, and the reason says so.
    expect(cutCheck(cutSession('Done.'), null).violations.map((v) => v.detail)).toEqual([expect.stringContaining("judged by the result's wording only (no side effect to observe)")]);
    expect(cutCheck(cutSession('Command: write\nError: (none)\nExit Code: 0'), null).violations).toEqual([]);
  });

  it('sees a call that ran though its result was never sent, and one whose file appeared only by the end', () => {
    expect(cutCheck(cutSession(null), { second: ['lab-cut-c1.txt'], end: ['lab-cut-c1.txt'] }).violations.map((v) => v.detail)).toEqual([expect.stringContaining('though no result was sent for it')]);
    expect(cutCheck(cutSession(null), { second: [], end: [] }).violations).toEqual([]);
    expect(cutCheck(cutSession('ok'), { second: [], end: ['lab-cut-c1.txt'] }).violations.map((v) => v.detail)).toEqual([expect.stringContaining("by the session's end")]);
  });
});
