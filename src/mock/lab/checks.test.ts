/** The lab's checks on hand-made recorded requests: cases the harness-level tests do not reach (other wires, other framings). */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../session.js';
import type { Wire } from '../wire-errors.js';
import { judgeBackoff } from './backoff-judge.js';
import { runChecks } from './run-checks.js';
import { sessionView } from './session-view.js';
import { toolMapper } from './tool-map.js';

let at = 0;
const usage = { input_tokens: 1, output_tokens: 1, cache_read_tokens: 0, cache_write_tokens: 0 };
const text = { turn: 1, content: [{ type: 'text' as const, text: 'ok' }], stopReason: 'end_turn', usage, cutToolInput: false, fault: null };
function request(wire: Wire, body: object, extra: Partial<RecordedRequest> = {}): RecordedRequest {
  at += 1000;
  return { status: 200, turn: null, request: null, bodyBytes: 0, attempt: 1, receivedAt: at, answeredAt: at + 10, wire, method: 'POST', path: '/v1', side: null, said: text, fault: null, rejected: null, bodyText: JSON.stringify(body), ...extra };
}
const fired = (records: RecordedRequest[]) =>
  runChecks(sessionView(records, { exitCode: 0, timedOut: false, scriptCompleted: true }))
    .filter((t) => t.violations.length > 0)
    .map((t) => t.check);

const chatTools = [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }, { type: 'function', function: { name: 'ls', parameters: { type: 'object' } } }];
const call = (id: string) => ({ id, type: 'function', function: { name: 'read', arguments: '{}' } });

describe('conformance checks', () => {
  it('sees results of one Chat Completions turn split by a user message', () => {
    const messages = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [call('c1'), call('c2')] },
      { role: 'tool', tool_call_id: 'c1', content: 'a' },
      { role: 'user', content: 'also' },
      { role: 'tool', tool_call_id: 'c2', content: 'b' },
    ];
    expect(fired([request('openai', { model: 'm', messages, tools: chatTools })])).toEqual(['split_tool_results']);
  });

  it('names a reordered tools payload, and reads a Responses continuation with its stored history', () => {
    const first = request('responses', { model: 'm', input: 'go', tools: [{ type: 'function', name: 'read' }, { type: 'function', name: 'ls' }] }, {
      turn: 1,
      responseId: 'resp_1',
      said: { ...text, content: [{ type: 'tool_use', id: 'c1', name: 'read', input: {} }], stopReason: 'tool_use' },
    });
    const second = request('responses', { model: 'm', previous_response_id: 'resp_1', input: [{ type: 'function_call_output', call_id: 'c1', output: 'ok' }], tools: [{ type: 'function', name: 'ls' }, { type: 'function', name: 'read' }] }, { turn: 2 });
    const view = sessionView([first, second], { exitCode: 0, timedOut: false, scriptCompleted: true });
    const tallies = runChecks(view);
    expect(tallies.filter((t) => t.violations.length > 0).map((t) => t.check)).toEqual(['tools_changed']);
    expect(tallies.find((t) => t.check === 'tools_changed')?.violations[0]?.detail).toContain('the same tools in another order');
    // The output answers the call of the stored response: no orphan either way.
    expect(tallies.find((t) => t.check === 'orphan_tool_use')?.evaluated).toBe(1);
  });

  it('counts the $schema bytes of every request once for the session', () => {
    const tools = [{ name: 'read', input_schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', type: 'object' } }];
    const body = { model: 'm', max_tokens: 5, tools, messages: [{ role: 'user', content: 'go' }] };
    const tally = runChecks(sessionView([request('anthropic', body), request('anthropic', body)], { exitCode: 0, timedOut: false, scriptCompleted: true })).find((t) => t.check === 'undocumented_schema_keys')!;
    const one = Buffer.byteLength('"$schema":"https://json-schema.org/draft/2020-12/schema",');
    expect(tally.violations.map((v) => v.bytes)).toEqual([2 * one]);
  });
});

const said = (id: string, name = 'read') => ({ ...text, content: [{ type: 'tool_use' as const, id, name, input: {} }], stopReason: 'tool_use' });
const chatCall = (id: string, name: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: '{}' } }] });

describe('false alarms and new rules', () => {
  it('reads an actionable answer to an undeclared tool on the OpenAI wire as an error answer, and a placeholder as a pretend success', () => {
    const first = request('openai', { model: 'm', messages: [{ role: 'user', content: 'go' }], tools: chatTools }, { turn: 1, said: said('c1', 'find_config') });
    const second = (answer: string) =>
      request('openai', { model: 'm', messages: [{ role: 'user', content: 'go' }, chatCall('c1', 'find_config'), { role: 'tool', tool_call_id: 'c1', content: answer }], tools: chatTools }, { turn: 2 });
    expect(fired([first, second('There is no tool named find_config. The tools are: read, ls.')])).toEqual([]);
    expect(fired([first, second('{}')])).toEqual(['hallucinated_tool_unanswered']);
  });

  it('names text before the results of a turn on the Messages wire', () => {
    const tools = [{ name: 'read', input_schema: { type: 'object' } }];
    const first = request('anthropic', { model: 'm', max_tokens: 5, tools, messages: [{ role: 'user', content: 'go' }] }, { turn: 1, said: said('t1') });
    const resent = { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: {} }] };
    const body = (content: object[]) => ({ model: 'm', max_tokens: 5, tools, messages: [{ role: 'user', content: 'go' }, resent, { role: 'user', content }] });
    const result = { type: 'tool_result', tool_use_id: 't1', content: 'alpha' };
    expect(fired([first, request('anthropic', body([result, { type: 'text', text: 'a reminder after is fine' }]), { turn: 2 })])).toEqual([]);
    expect(fired([first, request('anthropic', body([{ type: 'text', text: 'Here are the results.' }, result]), { turn: 2 })])).toEqual(['tool_results_not_first']);
  });

  it('judges hintless retries against retries the same harness made when told it may retry at once', () => {
    const tools = [{ name: 'read', input_schema: { type: 'object' } }];
    const go = { model: 'm', max_tokens: 5, tools, messages: [{ role: 'user', content: 'go' }] };
    const atOnce = { status: 429, headers: { 'retry-after-ms': '1', 'retry-after': '0' } };
    /**
     * A session of lab-overloaded-then-success from its recorded gaps (ms from an answer to the next request): turn 1
     * two 429s told to retry at once, turn 2 two hintless 529s, turn 3 one more 429 told to retry at once, then turns
     * 4 and 5 after `turnaround` each. Each answer takes 1 ms.
     */
    const session = (gaps: { cal: [number, number, number]; waits: [number, number]; turnaround: number | [number, number, number, number] }) => {
      const t: [number, number, number, number] = typeof gaps.turnaround === 'number' ? [gaps.turnaround, gaps.turnaround, gaps.turnaround, gaps.turnaround] : gaps.turnaround;
      const steps: Array<[turn: number, attempt: number, gap: number, fault: object | null]> = [
        [1, 1, 0, atOnce], [1, 2, gaps.cal[0], atOnce], [1, 3, gaps.cal[1], null],
        [2, 1, t[0], { status: 529 }], [2, 2, gaps.waits[0], { status: 529 }], [2, 3, gaps.waits[1], null],
        [3, 1, t[1], atOnce], [3, 2, gaps.cal[2], null],
        [4, 1, t[2], null], [5, 1, t[3], null],
      ];
      let clock = 0;
      const records = steps.map(([turn, attempt, gap, fault]) => {
        clock += gap;
        const body = { ...go, messages: [...go.messages, ...Array.from({ length: turn - 1 }, (_, k) => [{ role: 'assistant', content: [{ type: 'tool_use', id: `t${k + 1}`, name: 'read', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${k + 1}`, content: 'a' }] }]).flat()] };
        const record = request('anthropic', body, { turn, attempt, status: fault ? (fault as { status: number }).status : 200, fault: fault as RecordedRequest['fault'], said: turn < 5 ? said(`t${turn}`) : text, receivedAt: clock, answeredAt: clock + 1 });
        clock += 1;
        return record;
      });
      return runChecks(sessionView(records, { exitCode: 0, timedOut: false, scriptCompleted: true })).find((t) => t.check === 'no_backoff')!;
    };
    // Recorded at load 17 on 2 cores: faultline's own harness with its 0.5 s exponential back-off ...
    const correct = session({ cal: [184, 239, 40], waits: [416, 972], turnaround: 120 });
    expect(correct.evaluated).toBe(1);
    expect(correct.violations).toEqual([]);
    // ... and with its bug switched on (no delay): the hintless retries are quicker than the at-once ones, which pay a
    // timer's wake-up on a busy machine as any back-off does.
    const immediate = session({ cal: [275, 101, 279], waits: [38, 67], turnaround: 18 });
    expect(immediate.violations.map((v) => v.detail)).toEqual([
      "turn 2: retries with no server hint waited 38 ms, 67 ms (105 ms in all); retries of the same harness told they may come at once (retry-after-ms: 1) waited 100 ms, 278 ms in this session (and 274 ms after the session's first failure, left out: its error path ran cold), and its median turnaround on a whole answer was 18 ms: not more than 3x the largest of the median at-once retry, that turnaround and 20 ms for timers (3 x 189 ms = 567 ms): no longer than 2 immediate retries and one more can take at this load; and the waits before second attempts (274 ms, 38 ms, 278 ms; median 274 ms) do not grow to those before third attempts (100 ms, 67 ms; median 84 ms): longer in 2 of 6 pairs, 0.30x the median, 191 ms less (grows: 75% of the pairs, 1.3x and more than 40 ms; doubles: 90% of the pairs, 1.6x and more than 40 ms; more than twice the second waits' median deviation, the turnarounds and 40 ms)",
    ]);
    // Claude Code 2.1.328 ignores a 1 ms hint and sleeps its own doubling back-off either way (recorded, load ~20):
    // its at-once retries cannot show an immediate retry's cost, its waits grow with the attempt number.
    expect(session({ cal: [907, 1191, 638], waits: [660, 1192], turnaround: [209, 472, 186, 237] }).violations).toEqual([]);
    expect(judgeBackoff([660, 1192], [906, 1190, 637], 223, [{ attempt: 2, gap: 906 }, { attempt: 3, gap: 1190 }, { attempt: 2, gap: 660 }, { attempt: 3, gap: 1192 }, { attempt: 2, gap: 637 }])).toMatchObject({
      backedOff: true,
      reason: expect.stringContaining('grow to those before third attempts (1190 ms, 1192 ms; median 1191 ms)'),
    });
    // Bug on, few-ms at-once retries and one hintless retry delayed 100 ms by the machine (recorded, Chat Completions
    // SSE): the harness's median turnaround (71 ms) is the floor of what an immediate retry can cost, and of the noise
    // growth must beat.
    expect(session({ cal: [1, 32, 17], waits: [25, 104], turnaround: [82, 60, 30, 199] }).violations).toHaveLength(1);
    // What the turnaround rule got wrong both ways: an immediate retry whose two waits differ by 1.9x read as growth
    // (recorded, bug on, Chat Completions), and a correct 0.5 s + 1 s back-off slowed by load read as none (762 and
    // 918 ms against a 155 ms turnaround, recorded at load 20-45; the at-once retries of that session were not
    // recorded: 280-400 ms is more than the 40-280 ms recorded at load 17).
    expect(session({ cal: [267, 54, 1], waits: [25, 48], turnaround: 2 }).violations).toHaveLength(1);
    expect(session({ cal: [310, 280, 402], waits: [762, 918], turnaround: 155 }).violations).toEqual([]);
  });

  /** A session's retries: the waits before second attempts, then those before third attempts. */
  const retriesOf = (seconds: number[], thirds: number[]) => [...seconds.map((gap) => ({ attempt: 2, gap })), ...thirds.map((gap) => ({ attempt: 3, gap }))];

  it('reads a doubling back-off as one when the scheduler delayed one of its first waits (recorded, Claude Code 2.1.328, CI at load 5)', () => {
    // Turn 6 waited 565 + 1150 ms; told to retry at once it still slept its own schedule (1378, 574, 649, 583 ms; 675 ms
    // cold), so those calibrate nothing; median turnaround 221 ms. Second attempts 565-689 ms but one of 1,324 ms, third
    // attempts 1,150-1,378 ms: every-against-every and the whole spread read that as no growth, a false no_backoff.
    const seconds = [675, 689, 574, 1324, 649, 565, 583];
    const thirds = [1378, 1209, 1235, 1150];
    const all = retriesOf(seconds, thirds);
    expect(judgeBackoff([565, 1150], [1378, 574, 649, 583], 221, all, 675)).toMatchObject({
      judged: true,
      backedOff: true,
      reason: expect.stringContaining('grow to those before third attempts (1378 ms, 1209 ms, 1235 ms, 1150 ms; median 1222 ms): longer in 25 of 28 pairs'),
    });
    // The same waits with no growth from second to third attempts (an immediate retry slowed by load) still read as none.
    const flat = retriesOf(seconds, [600, 650, 1300, 580]);
    expect(judgeBackoff([565, 650], [1378, 574, 649, 583], 221, flat, 675)).toMatchObject({ judged: true, backedOff: false });
  });

  it("reads a doubling back-off as one when the load made two of the harness's turnarounds longer than the doubling (recorded, Claude Code 2.1.328, CI)", () => {
    // Turn 6 waited 555 + 1059 ms; told to retry at once it slept its own schedule (1074, 609, 564, 540 ms; 630 ms
    // cold); median turnaround 273 ms. Second attempts 540-664 ms, third 1,059-1,209 ms: 28 of 28 pairs, 1.87x, but
    // 531 ms more against two turnarounds of 546 ms, a false no_backoff.
    const seconds = [630, 637, 609, 664, 564, 555, 540];
    const thirds = [1074, 1209, 1206, 1059];
    const all = retriesOf(seconds, thirds);
    expect(judgeBackoff([555, 1059], [1074, 609, 564, 540], 273, all, 630)).toMatchObject({
      judged: true,
      backedOff: true,
      reason: expect.stringContaining('grow to those before third attempts (1074 ms, 1209 ms, 1206 ms, 1059 ms; median 1140 ms): longer in 28 of 28 pairs, 1.87x the median, 531 ms more'),
    });
    // Growth short of a doubling still has to beat two turnarounds: 1.4x and 256 ms more reads as none.
    const slower = retriesOf(seconds, [850, 900, 880, 820]);
    expect(judgeBackoff([555, 850], [850, 609, 564, 540], 273, slower, 630)).toMatchObject({ judged: true, backedOff: false });
  });

  it('does not read 25 ms more on third attempts as growth (recorded, bug on, Gemini wire at load 20)', () => {
    // Turn 2 waited 28 + 39 ms, turn 4 22 + 35 ms; at-once retries 59, 2, 3 ms (13 ms cold); median turnaround 23 ms.
    const all = [{ attempt: 2, gap: 13 }, { attempt: 3, gap: 59 }, { attempt: 2, gap: 28 }, { attempt: 3, gap: 39 }, { attempt: 2, gap: 2 }, { attempt: 2, gap: 22 }, { attempt: 3, gap: 35 }, { attempt: 2, gap: 3 }];
    expect(judgeBackoff([28, 39], [59, 2, 3], 23, all, 13)).toMatchObject({ judged: true, backedOff: false });
    expect(judgeBackoff([22, 35], [59, 2, 3], 23, all, 13)).toMatchObject({ judged: true, backedOff: false });
  });

  it('does not read a few ms of timer jitter as a wait (recorded, bug on, idle Gemini wire)', () => {
    // Turn 2 waited 0 + 16 ms, turn 4 5 + 5 ms; the at-once retries took 0-29 ms, the median turnaround 3 ms.
    const all = [{ attempt: 2, gap: 2 }, { attempt: 3, gap: 29 }, { attempt: 2, gap: 0 }, { attempt: 3, gap: 16 }, { attempt: 2, gap: 0 }, { attempt: 2, gap: 5 }, { attempt: 3, gap: 5 }, { attempt: 2, gap: 1 }];
    expect(judgeBackoff([0, 16], [29, 0, 1], 3, all, 2)).toMatchObject({ judged: true, backedOff: false });
    expect(judgeBackoff([5, 5], [29, 0, 1], 3, all, 2)).toMatchObject({ judged: true, backedOff: false });
  });

  it("leaves out the retry after the session's first failure, whose error path runs cold", () => {
    // Recorded, faultline's own harness with its 0.5 s back-off, load 21: the first at-once retry took 657 ms, the
    // later ones 0-45 ms (judged against the slowest, its 773 + 933 ms read as no back-off).
    const judged = judgeBackoff([773, 933], [0, 0, 45], 61, [], 657);
    expect(judged).toMatchObject({ judged: true, backedOff: true, reason: expect.stringContaining("(and 657 ms after the session's first failure, left out: its error path ran cold)") });
    // With one later at-once retry, the cold one would set the median.
    expect(judgeBackoff([400, 500], [100], 50, [], 900)).toMatchObject({ judged: true, backedOff: true });
    expect(judgeBackoff([400, 500], [900, 100], 50)).toMatchObject({ judged: true, backedOff: false });
  });

  it('does not judge without an at-once calibration, nor when the harness waits even when told it may retry at once', () => {
    expect(judgeBackoff([30, 40], [], 20)).toMatchObject({ judged: false });
    // A harness that ignores the hint and sleeps 2 s every time: its at-once retries measure its back-off.
    expect(judgeBackoff([2_010, 2_020], [2_005, 2_015], 30)).toMatchObject({ judged: false, why: expect.stringContaining('waits on its own') });
    // Unless its waits grow with the attempt number, which needs no calibration: Gemini CLI 0.61.0 ignores a 0.001s
    // RetryInfo and sleeps its own doubling back-off (recorded: at-once 5925 ms cold, then 10700, 5628, 5485, 5211 ms;
    // hintless 4878 + 10418, 4277 + 11189, 3667 + 11210 ms; median turnaround 20 ms).
    const gemini = [[2, 5925], [3, 10700], [2, 4878], [3, 10418], [2, 5628], [2, 4277], [3, 11189], [2, 5485], [2, 3667], [3, 11210], [2, 5211]].map(([attempt, gap]) => ({ attempt: attempt!, gap: gap! }));
    for (const waits of [[4878, 10418], [4277, 11189], [3667, 11210]]) {
      expect(judgeBackoff(waits, [10700, 5628, 5485, 5211], 20, gemini, 5925)).toMatchObject({ judged: true, backedOff: true, reason: expect.stringMatching(/waits on its own.*but the waits before second attempts .* grow to those before third attempts \(10700 ms, 10418 ms, 11189 ms, 11210 ms; median 10945 ms\): longer in 28 of 28 pairs/) });
    }
    // The same harness sleeping a fixed 5 s every time shows no growth: still not judged.
    const fixed = gemini.map((r) => ({ ...r, gap: 5_000 + (r.gap % 300) }));
    expect(judgeBackoff([5_100, 5_200], [5_000, 5_100, 5_200], 20, fixed, 5_000)).toMatchObject({ judged: false, why: expect.stringContaining('waits on its own') });
    // One hintless retry is judged too, against twice the slowest at-once retry.
    expect(judgeBackoff([90], [50, 60], 20)).toMatchObject({ judged: true, backedOff: false });
    expect(judgeBackoff([450], [50, 60], 20)).toMatchObject({ judged: true, backedOff: true });
  });
});

describe('the generic tool mapper', () => {
  const tools = [
    { name: 'view', description: '', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
    { name: 'run_command', description: '', input_schema: { type: 'object', properties: { cmd: { type: 'string' } } } },
  ];
  it('maps generic names and input keys onto the harness tools, and leaves made-up tools alone', () => {
    const map = toolMapper(tools);
    expect(map('read', { path: 'a.txt' })).toEqual({ name: 'view', input: { file_path: 'a.txt' } });
    expect(map('bash', { command: 'ls' })).toEqual({ name: 'run_command', input: { cmd: 'ls' } });
    expect(map('find_config_file', { name: 'x' })).toEqual({ name: 'find_config_file', input: { name: 'x' } });
    expect(toolMapper(tools, { read: 'run_command' })('read', {}).name).toBe('run_command');
  });

  it("gives the workspace's absolute path where the harness's schema asks for one", () => {
    const absolute = [{ name: 'read_file', description: '', input_schema: { type: 'object', properties: { absolute_path: { type: 'string' } } } }];
    const described = [{ name: 'Read', description: '', input_schema: { type: 'object', properties: { file_path: { type: 'string', description: 'The absolute path to the file to read' } } } }];
    expect(toolMapper(absolute, {}, '/ws')('read', { path: 'a.txt' }).input).toEqual({ absolute_path: '/ws/a.txt' });
    expect(toolMapper(described, {}, '/ws')('read', { path: 'a.txt' }).input).toEqual({ file_path: '/ws/a.txt' });
    expect(toolMapper(tools, {}, '/ws')('read', { path: 'a.txt' }).input).toEqual({ file_path: 'a.txt' });
    // A description that takes a relative path too keeps the script's path (a long workspace path would otherwise
    // move where a cut inside the arguments lands); one that refuses relative paths still gets the absolute one.
    const either = [{ name: 'read', description: '', input_schema: { type: 'object', properties: { file_path: { type: 'string', description: 'Path of the file, relative to the workspace root (or absolute inside it).' } } } }];
    const refuses = [{ name: 'read_file', description: '', input_schema: { type: 'object', properties: { file_path: { type: 'string', description: 'The absolute path to the file to read. Relative paths are not supported.' } } } }];
    expect(toolMapper(either, {}, '/ws')('read', { path: 'a.txt' }).input).toEqual({ file_path: 'a.txt' });
    expect(toolMapper(refuses, {}, '/ws')('read', { path: 'a.txt' }).input).toEqual({ file_path: '/ws/a.txt' });
  });

  it('leaves unjudged an undeclared call the lab cut short at its --timeout, and judges one the harness sat on', () => {
    const ask = (turn: number, messages: object[], extra: Partial<RecordedRequest> = {}) => request('openai', { model: 'm', messages, tools: chatTools }, { turn, said: said(`c${turn}`, 'sleep'), ...extra });
    const history = (n: number) => [{ role: 'user', content: 'go' }, ...Array.from({ length: n }, (_, i) => [chatCall(`c${i + 1}`, 'sleep'), { role: 'tool', tool_call_id: `c${i + 1}`, content: 'There is no tool named sleep.' }]).flat()];
    // Three answered turns 1 s apart (a turnaround of ~990 ms each), then the fourth turn's call.
    const records = [ask(1, history(0)), ask(2, history(1)), ask(3, history(2)), ask(4, history(3))];
    const last = records[3]!.answeredAt!;
    const judged = (stoppedAt: number) =>
      runChecks(sessionView(records, { exitCode: null, timedOut: true, scriptCompleted: false, stoppedAt })).find((t) => t.check === 'hallucinated_tool_unanswered')!;
    // Stopped 100 ms after the last answer: the harness may have been about to answer it.
    expect(judged(last + 100)).toMatchObject({ evaluated: 3, violations: [] });
    // Stopped 20 s after it (20x its turnaround): it sat on the call.
    expect(judged(last + 20_000).violations.map((v) => v.detail)).toEqual([expect.stringContaining('nothing answered it before the lab stopped the harness')]);
  });

  it('does not judge a stall on a non-streamed answer: no byte until the generation is done is how JSON always looks', () => {
    const held = request('openai', { model: 'm', messages: [{ role: 'user', content: 'go' }], tools: chatTools }, { turn: 1, said: said('c9'), fault: { stall_after_events: 'inside_tool_input', times: 1 }, request: { stream: false } as unknown as RecordedRequest['request'] });
    const judge = (record: RecordedRequest) => runChecks(sessionView([record], { exitCode: 1, timedOut: false, scriptCompleted: false, stoppedAt: record.receivedAt + 15_400 })).find((t) => t.check === 'stall_not_detected')!;
    expect(judge(held).evaluated).toBe(0);
    // The same wait on a stream is judged and named.
    expect(judge({ ...held, request: { stream: true } as unknown as RecordedRequest['request'] }).violations).toHaveLength(1);
  });

  it('names a harness that waited a stall out until the mock dropped it and then gave up, and not one the lab stopped sooner', () => {
    const stalled = request('openai', { model: 'm', messages: [{ role: 'user', content: 'go' }], tools: chatTools }, { turn: 1, said: said('c1'), fault: { stall_after_events: 'inside_tool_input', times: 1 } });
    const stall = (end: { timedOut: boolean; after: number }) =>
      runChecks(sessionView([stalled], { exitCode: end.timedOut ? null : 1, timedOut: end.timedOut, scriptCompleted: false, stoppedAt: stalled.receivedAt + end.after })).find((t) => t.check === 'stall_not_detected')!;
    expect(stall({ timedOut: false, after: 15_400 }).violations.map((v) => v.detail)).toEqual([expect.stringContaining('waited until the mock dropped the connection at 15.0 s, then ended 15.4 s after the request without a retry')]);
    // Its own idle timeout at 5 s, then exit: it noticed the stall (that it did not retry is transient_not_retried's).
    expect(stall({ timedOut: false, after: 5_000 }).violations).toEqual([]);
    // The lab's --timeout came 14 s in, before the mock would have dropped the stall: not judged.
    expect(stall({ timedOut: true, after: 14_000 }).violations).toEqual([]);
    expect(stall({ timedOut: true, after: 20_000 }).violations).toHaveLength(1);
  });

  it('judges a missing turn cap once the harness has looped, never for one the lab stopped before it got going', () => {
    const turns = (n: number) => Array.from({ length: n }, (_, i) => request('openai', { model: 'm', messages: [{ role: 'user', content: 'go' }], tools: chatTools }, { turn: i + 1, said: said(`c${i + 1}`, 'ls') }));
    const cap = (n: number) => runChecks(sessionView(turns(n), { exitCode: null, timedOut: true, scriptCompleted: false, stoppedAt: at + 100 }, { endless: true })).find((t) => t.check === 'no_turn_cap')!;
    expect(cap(0)).toMatchObject({ evaluated: 0, violations: [] });
    expect(cap(3)).toMatchObject({ evaluated: 0, violations: [] });
    expect(cap(12).violations.map((v) => v.detail)).toEqual([expect.stringContaining('no turn cap of its own below 12 turns')]);
    // Stopped by the lab's turn limit before its --timeout: judged the same, and the reason names the limit.
    const limited = (end: { turnLimit?: number }) => runChecks(sessionView(turns(16), { exitCode: null, timedOut: false, scriptCompleted: false, stoppedAt: at + 100, ...end }, { endless: true })).find((t) => t.check === 'no_turn_cap')!;
    expect(limited({ turnLimit: 15 }).violations.map((v) => v.detail)).toEqual([expect.stringContaining('still going after 15 turns, where the lab stops a task that never ends')]);
    // A harness that stopped on its own after 16 turns (no limit reached, no timeout): its cap worked.
    expect(limited({})).toMatchObject({ evaluated: 1, violations: [] });
  });
});
