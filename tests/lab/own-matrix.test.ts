/**
 * The lab's whole matrix against faultline's own harness as an external
 * process: for every check × every wire where its rule exists × JSON and SSE,
 * the harness with that one bug switched on (tests/lab/fixtures/own-bugs*.ts)
 * makes exactly that check fire and nothing else; with every bug off, no check
 * fires on any task of suites/lab/, on any wire, JSON or SSE. The matrix is
 * data: a check without a row, or a wire left out without a reason, fails.
 * `npm test` runs it as its own phase after the other files
 * (vitest.lab-matrix.config.ts), so ~280 files beside it never starve its labs.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ConformanceCheck } from '../../src/events/labels.js';
import { CHECK_IDS } from '../../src/mock/lab/catalog.js';
import { BUGS } from './fixtures/own-bugs.js';
import { bundleOwnHarness, details, lab, labTasks, ownHarness, type LabRun } from './lab-run.js';

// Cells wait on timers (retries, stalls, the lab's timeout) more than they compute: more of them side by side.
vi.setConfig({ maxConcurrency: 4 });

const WIRES = ['anthropic', 'openai', 'responses', 'gemini'] as const;
const MODES = ['json', 'sse'] as const;
type Wire = (typeof WIRES)[number];
type Mode = (typeof MODES)[number];

interface Row {
  /** The lab tasks that provoke the check (each runs as its own session of the cell). */
  tasks: string[];
  /** Cells where the rule does not exist, or the lab cannot see it: by wire, or wire/mode, with the reason. */
  not?: Partial<Record<Wire | `${Wire}/${Mode}`, string>>;
  /** Bugs that show as waiting get their own lab --timeout (ms). */
  timeoutMs?: number;
  /** Judged from waits of a few hundred ms: run in the timed phase, before the other cells load the machine. */
  timed?: true;
}

const NO_STRICT_ON_GEMINI = 'Gemini function declarations have no strict mode: there is no strict schema to get wrong';
const NO_JSON_STALL = 'a non-streamed answer sends nothing until the whole generation is done (minutes for a long one): no byte for 15 s is how it always looks, so stalls are judged on streams only';
const NO_ERROR_FLAG = 'no error flag on this wire: a tool message / function_call_output is text only, an error is said in words';

/** check -> task(s) -> wires. The bug switch is the check id itself (`--bug <check>`). */
const MATRIX: Record<ConformanceCheck, Row> = {
  orphan_tool_use: { tasks: ['lab-parallel-with-timeout'] },
  orphan_tool_result: { tasks: ['lab-parallel-with-timeout'] },
  duplicate_tool_id: { tasks: ['lab-parallel-with-timeout'] },
  split_tool_results: { tasks: ['lab-parallel-with-timeout'] },
  assistant_turn_missing: { tasks: ['lab-empty-output'] },
  tools_changed: { tasks: ['lab-empty-output'] },
  dynamic_prefix: { tasks: ['lab-empty-output'] },
  undocumented_schema_keys: { tasks: ['lab-empty-output'] },
  strict_schema_invalid: { tasks: ['lab-empty-output'], not: { gemini: NO_STRICT_ON_GEMINI } },
  cut_tool_use_executed: {
    tasks: ['lab-max-tokens-mid-tool-use'],
    not: {
      gemini:
        'Gemini sends a function call whole or not at all: a MAX_TOKENS answer carries no partial call (the mock drops it as the API does), and a broken stream\'s calls never reach the own harness\'s loop, so it has no switch to run them (tests/lab/gemini-cli.test.ts sees the check fire on Gemini CLI there)',
    },
  },
  retry_after_ignored: { tasks: ['lab-rate-limited'] },
  client_error_retried: { tasks: ['lab-client-error-not-retried'] },
  unbounded_retries: { tasks: ['lab-retries-exhausted'] },
  no_backoff: { tasks: ['lab-overloaded-then-success'], timed: true },
  transient_not_retried: { tasks: ['lab-overloaded-then-success'] },
  empty_tool_result: { tasks: ['lab-empty-output'] },
  oversized_tool_result: { tasks: ['lab-empty-output'] },
  hallucinated_tool_unanswered: { tasks: ['lab-hallucinated-tool'] },
  tools_dropped: { tasks: ['lab-empty-output'] },
  tool_results_not_first: { tasks: ['lab-parallel-reads'] },
  // Both tasks on every wire: a Responses or Gemini answer has no stop reason of its own beside calls (Responses says
  // `completed`, Gemini STOP, whether or not calls came), so there the end_turn task is text beside a call too.
  calls_left_unanswered: { tasks: ['lab-end-turn-with-tool-call', 'lab-text-beside-tool-call'] },
  request_after_end: { tasks: ['lab-empty-output'] },
  resent_turn_altered: { tasks: ['lab-parallel-reads'] },
  history_rewritten: { tasks: ['lab-hallucinated-tool'] },
  malformed_arguments_executed: {
    tasks: ['lab-malformed-arguments'],
    not: {
      gemini: 'Gemini function-call args are a JSON object, never text: unparseable ones come back as finishReason MALFORMED_FUNCTION_CALL with no call',
      'anthropic/json': "a Messages JSON answer's tool_use input is always an object: a parse failure upstream reaches the harness as {}, which it cannot tell from a call without arguments",
    },
  },
  oversized_tool_definitions: { tasks: ['lab-empty-output'] },
  stall_not_detected: { tasks: ['lab-stream-stall'], timeoutMs: 30_000, not: Object.fromEntries(WIRES.map((w) => [`${w}/json`, NO_JSON_STALL])) },
  // Judged once the harness has sent 10 turns before the lab stops it: long enough for that on a loaded machine (a
  // harness process there has taken 16 s to send its first request).
  no_turn_cap: { tasks: ['lab-no-turn-cap'], timeoutMs: 60_000 },
  silent_truncation: { tasks: ['lab-large-file'] },
  error_result_unflagged: { tasks: ['lab-parallel-reads'], not: { openai: NO_ERROR_FLAG, responses: NO_ERROR_FLAG } },
};

const exclusion = (row: Row, wire: Wire, mode: Mode): string | undefined => row.not?.[wire] ?? row.not?.[`${wire}/${mode}`];

const CELLS = (Object.entries(MATRIX) as Array<[ConformanceCheck, Row]>).flatMap(([check, row]) =>
  WIRES.flatMap((wire) => MODES.filter((mode) => exclusion(row, wire, mode) === undefined).map((mode) => ({ check, wire, mode, row }))),
);

/** The tasks judged by retry timing: with every bug off, they too run in the timed phase. */
const TIMED_TASKS = ['lab-overloaded-then-success'];

const modeOption = (mode: Mode) => (mode === 'sse' ? { stream: true } : { json: true });
/**
 * A session's --timeout when its row sets none: a correct harness ends in seconds, but on a loaded 2-core machine
 * one has taken 36 s to send its first request. (A cell whose first request showed 100 s late in CI was this
 * worker, not the harness: it was stuck judging and collecting never-ending sessions of hundreds of turns, before
 * the lab stopped those at its turn limit.)
 */
const SESSION_TIMEOUT_MS = 150_000;
const key = (...parts: string[]) => parts.join(' ');

let bundle: { file: string; remove(): void };
/** The timed phase's runs, by cell (`check wire mode`, or `off wire mode` for every bug off). */
const timedRuns = new Map<string, LabRun>();
const timedReruns: string[] = [];

beforeAll(async () => {
  bundle = await bundleOwnHarness();
  // The timed phase: retry waits are compared with the harness's own turnaround, so these sessions run before the
  // rest of the matrix, four at a time, rather than beside 10 other labs (the machine's other load stays).
  const jobs: Array<{ key: string; run: () => Promise<LabRun>; expected: ConformanceCheck[] }> = [
    ...CELLS.filter((c) => c.row.timed).map((c) => ({ key: key(c.check, c.wire, c.mode), run: () => lab(ownHarness(bundle.file, { bug: c.check, wire: c.wire, ...modeOption(c.mode) }), labTasks(...c.row.tasks), { timeoutMs: SESSION_TIMEOUT_MS }), expected: [c.check] })),
    ...WIRES.flatMap((wire) => MODES.map((mode) => ({ key: key('off', wire, mode), run: () => lab(ownHarness(bundle.file, { wire, ...modeOption(mode) }), labTasks(...TIMED_TASKS), { timeoutMs: SESSION_TIMEOUT_MS }), expected: [] as ConformanceCheck[] }))),
  ];
  // no_backoff compares waits of tens to hundreds of ms with the same harness's retries told they may come at once:
  // with 2 busy loops on 2 cores it decided none of 176 sessions of this phase wrongly (88 bug on, 88 off; the former
  // turnaround rule: 25 of 65 bug-on sessions). A timed session whose verdict is not the expected one still runs once
  // more, counted and printed, as a bug hides only when all three of its hintless turns read as backing off.
  const queue = [...jobs];
  await Promise.all([0, 1, 2, 3].map(async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      let run = await job.run();
      if (run.violated.join() !== job.expected.join()) {
        timedReruns.push(`${job.key}: ${details(run).join('; ') || 'nothing fired'}`);
        run = await job.run();
      }
      timedRuns.set(job.key, run);
    }
  }));
}, 900_000);

/** What the sessions did, for a failing cell: the violations, and each session's end and what the checks looked at. */
const why = (run: LabRun): string =>
  [...details(run), ...run.summary.sessions.map((s) => `${s.task.id}: ${s.outcome}, stop ${s.stop}, ${s.turns}/${s.scriptTurns} turns, exit ${s.exit.code ?? s.exit.signal}${s.timedOut ? ' (timed out)' : ''}; ${s.output.stdout.slice(-200)} ${s.output.stderr.slice(-300)}`)].join('\n');

const passed = new Set<string>();
afterAll(() => {
  bundle?.remove();
  // The matrix as run: passing cells per check and wire (of the JSON and SSE cells the rule has there).
  const lines = (Object.entries(MATRIX) as Array<[ConformanceCheck, Row]>).map(([check, row]) => {
    const cells = WIRES.map((wire) => {
      const modes = MODES.filter((mode) => exclusion(row, wire, mode) === undefined);
      return modes.length === 0 ? '  -  ' : `${modes.filter((mode) => passed.has(`${check} ${wire} ${mode}`)).length}/${modes.length}`.padEnd(5);
    });
    return `${check.padEnd(30)} ${cells.join(' ')}`;
  });
  process.stdout.write(`\n${'check'.padEnd(30)} ${WIRES.map((w) => w.slice(0, 5).padEnd(5)).join(' ')}\n${lines.join('\n')}\npassing cells: ${passed.size} of ${CELLS.length}\ntimed sessions run again: ${timedReruns.length}${timedReruns.map((r) => `\n  ${r}`).join('')}\n`);
});

describe('the lab matrix against faultline\'s own harness', () => {
  it('has a row for every check, a bug switch for every row, and a reason for every cell left out', () => {
    expect(Object.keys(MATRIX).sort()).toEqual([...CHECK_IDS].sort());
    expect([...BUGS].sort()).toEqual([...CHECK_IDS].sort());
    for (const [check, row] of Object.entries(MATRIX) as Array<[ConformanceCheck, Row]>) {
      expect(row.tasks.length, check).toBeGreaterThan(0);
      for (const id of row.tasks) {
        const task = labTasks(id)[0]!;
        // A task whose fault does not exist on a wire (its `wires`) leaves that wire out of the row, with a reason.
        for (const wire of WIRES) if (task.wires !== undefined && !task.wires.includes(wire)) expect(row.not?.[wire], `${check} on ${wire}: ${id} does not run there`).toBeTruthy();
      }
      for (const reason of Object.values(row.not ?? {})) expect(reason.length).toBeGreaterThan(20);
      // Every check exists on the Messages wire and somewhere besides it.
      expect(CELLS.filter((c) => c.check === check && c.wire === 'anthropic').length, check).toBeGreaterThan(0);
    }
  });

  it.concurrent.each(CELLS.map((c) => [c.check, c.wire, c.mode, c] as const))('%s fires alone with its bug on (%s, %s)', async (check, wire, mode, { row }) => {
    // Only the excerpt a failure prints is kept of each request (a whole line carries the request's whole history).
    const requests: string[] = [];
    // Copied out (a slice of a string keeps all of it alive).
    const excerpt = (r: string) => { const i = r.search(/tool_call_id|function_call_output|functionResponse|tool_result/); return Buffer.from(`${r.slice(0, 400)} ... ${i < 0 ? '' : r.slice(i - 300, i + 400)}`).toString(); };
    const run = timedRuns.get(key(check, wire, mode)) ?? (await lab(ownHarness(bundle.file, { bug: check, wire, ...modeOption(mode) }), labTasks(...row.tasks), { onRequestRecord: (line) => requests.push(excerpt(line)), timeoutMs: row.timeoutMs ?? SESSION_TIMEOUT_MS }));
    expect(run.violated, `${why(run)}\n${requests.join('\n')}`).toEqual([check]);
    const events = run.events.filter((e) => e.event === 'conformance');
    expect(events.every((e) => e.event === 'conformance' && e.check_id === check)).toBe(true);
    // Every task of the row shows the bug (a row of two tasks proves both).
    expect(run.summary.sessions.filter((s) => s.tallies.some((t) => t.check === check && t.violations.length > 0)).map((s) => s.task.id)).toEqual(row.tasks);
    expect([...new Set(run.summary.sessions.flatMap((s) => s.wires))]).toEqual([wire]);
    passed.add(`${check} ${wire} ${mode}`);
  }, 420_000);

  // Every bug off: every task that exists on the wire passes, nothing fires. Three labs side by side per row, and the
  // timed tasks from the timed phase.
  it.concurrent.each(WIRES.flatMap((wire) => MODES.map((mode) => [wire, mode] as const)))('fires nothing with every bug off (%s, %s)', async (wire, mode) => {
    const tasks = labTasks().filter((t) => t.wires === undefined || t.wires.includes(wire));
    const untimed = tasks.filter((t) => !TIMED_TASKS.includes(t.id));
    const parts = [timedRuns.get(key('off', wire, mode))!, ...(await Promise.all([0, 1, 2].map((k) => lab(ownHarness(bundle.file, { wire, ...modeOption(mode) }), untimed.filter((_, i) => i % 3 === k), { timeoutMs: SESSION_TIMEOUT_MS }))))];
    const sessions = parts.flatMap((p) => p.summary.sessions);
    const text = parts.flatMap((p) => details(p)).join('\n');
    expect(text, parts.map(why).join('\n')).toBe('');
    expect(tasks.map((t) => `${t.id} ${sessions.find((s) => s.task.id === t.id)?.outcome}`)).toEqual(tasks.map((t) => `${t.id} passed`));
    expect([...new Set(sessions.flatMap((s) => s.wires))]).toEqual([wire]);
  }, 900_000);
});
