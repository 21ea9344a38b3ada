/**
 * The lab against three real CLI agents, unchanged, offline, over every task
 * of suites/lab/protocol.yaml, one agent per wire: Claude Code 2.1.328 on
 * the Messages API, Qwen Code 0.15.10 on Chat Completions, opencode 1.18.33
 * on the Responses API. Each is installed once from the npm registry into the
 * test install cache (tests/helpers/cli-install.ts: their per-platform binary
 * packages are not all published, so they cannot be devDependencies), gets a
 * HOME and TMPDIR of its own, and runs under `faultline lab` as a separate
 * process inside a loopback-only network namespace where the machine allows
 * it. Claude Code and opencode ship native binaries (Claude Code's wrapper
 * wants Node >= 22 only for its install script), so Node 20 runs them all.
 *
 * Every verdict pinned below was confirmed by reading the recorded requests
 * (the comments say what they show), and the evidence for each alarm is
 * asserted from those requests too, not taken from the check's own wording.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installCli } from '../helpers/cli-install.js';
import { fired, labProcess, loopbackOnlyWorks, type AgentLabRun, type LabJsonSession, type RecordedLine } from './cli-agent-run.js';
import { LAB_TASKS, ROOT } from './lab-run.js';

const DIR = join(ROOT, '.vitest-tmp', `cli-agents-${process.pid}`);
afterAll(() => rmSync(DIR, { recursive: true, force: true }));

/** The tasks that only end by the lab's --timeout when a harness has no cap of its own: run apart with a short one. */
const ENDLESS = ['lab-retries-exhausted', 'lab-no-turn-cap'];
const ALL = LAB_TASKS.filter((t) => t.suite === 'lab-protocol').map((t) => t.id);

type Row = [task: string, stop: string, checks: string[], line?: RegExp];

interface Agent {
  name: string;
  pkg: [string, string];
  wire: string;
  /** The harness command, given where the package is installed and a home folder of its own. */
  command(resolve: (pkg: string, file: string) => string, home: string): string[];
  /** Checks that fire on every session for what the agent always sends (its tool schemas). */
  always: string[];
  /** Task groups run side by side, each a `faultline lab` process with its --timeout (the slow-starting agent gets more). */
  shards: Array<{ tasks: string[]; timeoutS: number }>;
  findings: Row[];
}

/** Claude Code's streamed tool execution races a broken stream: these checks fire exactly when the requests show it ran a broken attempt's call. */
const RACE = ['cut_tool_use_executed', 'history_rewritten'];
/**
 * opencode races the same way on a cut stream: when the cut lands after its first call's arguments are whole it
 * keeps the broken attempt and runs that call (seen in a CI run); otherwise it retries clean. Judged from the requests.
 */
const OPENCODE_RACE = ['cut_tool_use_executed'];
/**
 * The same races on the *-write tasks, judged by the workspace: cut_tool_use_executed is expected exactly when a file
 * of a broken attempt's call (lab-first-<id>_cut1.txt) is there; history_rewritten when the requests carry its result.
 */
const WRITE_RACE = ['cut_tool_use_executed', 'history_rewritten'];
const OPENCODE_WRITE_RACE = ['cut_tool_use_executed'];
/** The race rows: their checks are expected exactly when the recorded requests (and, for writes, the workspace) show the broken attempt's call ran. */
const RACES = new Set([RACE, OPENCODE_RACE, WRITE_RACE, OPENCODE_WRITE_RACE]);

const TIMED_OUT = /^aborted .*stopped by the lab at its --timeout \(\d+\.\d s\) before the harness finished/;
/** A model that never stops: the lab stops the agent at its --timeout, or sooner at its turn limit on a fast machine. */
const NEVER_STOPPED = /^aborted .*stopped by the lab (?:at its --timeout \(\d+\.\d s\) before the harness finished|after \d+ turns of a model that never stops)/;

const OPENCODE_CONFIG = JSON.stringify({
  autoupdate: false,
  share: 'disabled',
  model: 'lab/lab-model',
  provider: { lab: { npm: '@ai-sdk/openai', name: 'lab', options: { baseURL: '{env:OPENAI_BASE_URL}', apiKey: '{env:OPENAI_API_KEY}' }, models: { 'lab-model': { name: 'lab-model', tool_call: true, limit: { context: 200_000, output: 8_192 } } } } },
});

const rest = (...skip: string[]) => ALL.filter((t) => !ENDLESS.includes(t) && !skip.includes(t));
const halves = (tasks: string[], n: number) => Array.from({ length: n }, (_, k) => tasks.filter((_, i) => i % n === k));

const AGENTS: Agent[] = [
  {
    name: 'Claude Code 2.1.328',
    pkg: ['@anthropic-ai/claude-code', '2.1.328'],
    wire: 'anthropic',
    // The platform package holds the native binary (the wrapper's install script, not run here, would copy it over bin/claude.exe).
    command: (resolve, home) => ['env', `HOME=${home}`, `TMPDIR=${home}`, 'IS_SANDBOX=1', 'DISABLE_AUTOUPDATER=1', 'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1', resolve('@anthropic-ai/claude-code-linux-x64', 'claude'), '-p', '{prompt}', '--dangerously-skip-permissions', '--model', 'claude-sonnet-4-5'],
    // 627 bytes of $schema over its 11 tool schemas, every request.
    always: ['undocumented_schema_keys'],
    shards: [
      { tasks: rest(), timeoutS: 60 },
      { tasks: ENDLESS, timeoutS: 20 },
    ],
    findings: [
      ['lab-parallel-with-timeout', 'end_turn', []],
      ['lab-parallel-reads', 'end_turn', []],
      // Two hintless 529s at turns 2, 4 and 6: it waits 0.57-0.82 s, then 1.07-1.3 s (doubling). It does the same after a
      // 429 whose retry-after-ms asks for 1 ms (0.5-0.9 s, then 1.2-1.4 s): it ignores the hint, so no_backoff sees its
      // back-off by every second retry's wait being longer than every first one's (recorded in four runs).
      ['lab-overloaded-then-success', 'end_turn', []],
      ['lab-rate-limited', 'end_turn', []],
      ['lab-max-tokens-mid-tool-use', 'end_turn', []],
      // It starts a call as soon as its block is whole, racing the break that comes inside the next call's arguments.
      // When the call wins, it runs (its result carries a.txt's "alpha"), its result goes out as attempt 2, and the
      // retry's calls are merged into that assistant message: message 2 is resent with three tool_use blocks where the
      // request before had one. When the break wins, it retries clean. Which one the requests show is pinned in RACES.
      ['lab-stream-cut-mid-tool-use', 'end_turn', RACE],
      ['lab-sse-error-mid-tool-use', 'end_turn', RACE],
      ['lab-hallucinated-tool', 'end_turn', []],
      ['lab-empty-output', 'end_turn', []],
      // The request that got 400 is sent again byte for byte (its retry gets the scripted final answer).
      ['lab-client-error-not-retried', 'end_turn', ['client_error_retried']],
      // Ten retries of a 503 with exponential back-off take longer than the lab waits here.
      ['lab-retries-exhausted', 'aborted', [], TIMED_OUT],
      ['lab-end-turn-with-tool-call', 'end_turn', []],
      ['lab-text-beside-tool-call', 'end_turn', []],
      ['lab-malformed-arguments', 'end_turn', []],
      // It waits out the whole stall: its retry comes after the mock drops the connection at 15 s.
      ['lab-stream-stall', 'end_turn', ['stall_not_detected']],
      // `-p` has no turn cap unless --max-turns is given: hundreds of turns until the lab stops it.
      ['lab-no-turn-cap', 'aborted', ['no_turn_cap'], NEVER_STOPPED],
      ['lab-large-file', 'end_turn', []],
      // The cut Write is answered "InputValidationError: Write was called with input that could not be parsed as JSON",
      // and no file of it appears: it did not run.
      ['lab-max-tokens-mid-write', 'end_turn', []],
      // The same race, judged by the workspace: when the first Write wins, lab-first-<id>_cut1.txt is there before the
      // retry (its result goes out too, merged as above); the cut one never leaves its file.
      ['lab-stream-cut-mid-write', 'end_turn', WRITE_RACE],
      ['lab-sse-error-mid-write', 'end_turn', WRITE_RACE],
      // "Write was called with input that could not be parsed as JSON", and no file: refused, not run.
      ['lab-malformed-write', 'end_turn', []],
    ],
  },
  {
    name: 'Qwen Code 0.15.10',
    pkg: ['@qwen-code/qwen-code', '0.15.10'],
    wire: 'openai',
    command: (resolve, home) => ['env', `HOME=${home}`, `TMPDIR=${home}`, process.execPath, resolve('@qwen-code/qwen-code', 'cli.js'), '--yolo', '--auth-type', 'openai', '-m', 'lab-model', '{prompt}'],
    // zod's $schema in each of its tool schemas (156 bytes a request).
    always: ['undocumented_schema_keys'],
    // Its retries of a 503 get long enough for more than 10 attempts at their pace after a slow start (~13 s on a loaded machine).
    shards: [
      { tasks: rest(), timeoutS: 90 },
      { tasks: ['lab-retries-exhausted'], timeoutS: 90 },
      { tasks: ['lab-no-turn-cap'], timeoutS: 40 },
    ],
    findings: [
      ['lab-parallel-with-timeout', 'end_turn', []],
      ['lab-parallel-reads', 'end_turn', []],
      // Two 529s without a hint: the OpenAI SDK inside waits 0.4-0.53 s, then 0.8-1.02 s; told by retry-after-ms it may
      // retry at once, it retries in 0-165 ms (recorded in four runs).
      ['lab-overloaded-then-success', 'end_turn', []],
      ['lab-rate-limited', 'end_turn', []],
      ['lab-max-tokens-mid-tool-use', 'end_turn', []],
      // The stream breaks inside the second call's arguments: one request, then exit 1, no retry.
      ['lab-stream-cut-mid-tool-use', 'model_error', ['transient_not_retried'], /^model_error .*stopped \(exit 1\)/],
      ['lab-sse-error-mid-tool-use', 'model_error', ['transient_not_retried'], /^model_error .*stopped \(exit 1\)/],
      // 'Tool "find_config_file" not found in registry...': an error answer, then it reads app.toml as the script asks.
      ['lab-hallucinated-tool', 'end_turn', []],
      ['lab-empty-output', 'end_turn', []],
      // The 400 ends the session: exit 1, nothing resent.
      ['lab-client-error-not-retried', 'model_error', [], /^model_error .*stopped \(exit 1\)/],
      // The SDK's 3 attempts inside its own retry loop: the waits restart at ~0.5 s every third attempt, past 10 attempts.
      ['lab-retries-exhausted', 'aborted', ['unbounded_retries'], TIMED_OUT],
      // The call that came with end_turn is run and answered.
      ['lab-end-turn-with-tool-call', 'end_turn', []],
      ['lab-text-beside-tool-call', 'end_turn', []],
      // It repairs '{"path": "." "depth": 1}' and runs list_directory, whose answer is an error ("Path must be absolute: .").
      ['lab-malformed-arguments', 'end_turn', []],
      // One request, no byte after the stall, exit 1 only after the mock dropped the connection at 15 s.
      ['lab-stream-stall', 'model_error', ['transient_not_retried', 'stall_not_detected'], /^model_error .*stopped \(exit 1\)/],
      ['lab-no-turn-cap', 'aborted', ['no_turn_cap'], NEVER_STOPPED],
      ['lab-large-file', 'end_turn', []],
      // The cut write_file is dropped: no result for it, no file; it goes on with the retried turn.
      ['lab-max-tokens-mid-write', 'end_turn', []],
      ['lab-stream-cut-mid-write', 'model_error', ['transient_not_retried'], /^model_error .*stopped \(exit 1\)/],
      ['lab-sse-error-mid-write', 'model_error', ['transient_not_retried'], /^model_error .*stopped \(exit 1\)/],
      // It repairs the missing comma and runs write_file: lab-malformed-<id>.txt is in the workspace before the next
      // request, whose result says "Successfully created and wrote to new file". (On lab-malformed-arguments the repaired
      // list_directory fails on its relative path, which its wording showed; here the side effect shows the repair runs.)
      ['lab-malformed-write', 'end_turn', ['malformed_arguments_executed']],
    ],
  },
  {
    name: 'opencode 1.18.33',
    pkg: ['opencode-ai', '1.18.33'],
    wire: 'responses',
    // Its config names a provider of its own on @ai-sdk/openai (the Responses API) at the lab's URL; no models list is fetched.
    command: (resolve, home) => ['env', `HOME=${home}`, `TMPDIR=${home}`, 'OPENCODE_DISABLE_MODELS_FETCH=1', 'OPENCODE_DISABLE_AUTOUPDATE=1', `OPENCODE_CONFIG_CONTENT=${OPENCODE_CONFIG}`, resolve('opencode-linux-x64', 'bin/opencode'), 'run', '{prompt}'],
    // No $schema on this wire's tool definitions.
    always: [],
    // About 10 s to start each session: its tasks run in three labs side by side.
    // Its retries of a 503 end on their own after 6 attempts (~90 s of doubling waits): that task gets a lab of its own
    // with time for them; the endless loop gets long enough to loop past its slow start.
    shards: [...halves(rest(), 3).map((tasks) => ({ tasks, timeoutS: 120 })), { tasks: ['lab-retries-exhausted'], timeoutS: 180 }, { tasks: ['lab-no-turn-cap'], timeoutS: 120 }],
    findings: [
      // It has no sleep or ls tool: the lab sends those calls to its bash tool (`sleep 20`, `ls -la -- '.'`). (Sent as
      // unknown tools, they came back renamed "invalid" with an input of its own: resent_turn_altered.)
      ['lab-parallel-with-timeout', 'end_turn', []],
      ['lab-parallel-reads', 'end_turn', []],
      // Hintless 529s: 2.1-2.7 s, then 4.1-5.1 s; a 429 whose retry-after-ms asks for 1 ms: 0-280 ms, but 0.3-3 s for
      // the session's first two (recorded in four runs).
      ['lab-overloaded-then-success', 'end_turn', []],
      ['lab-rate-limited', 'end_turn', []],
      // It stops on the cut-off turn without running the cut call (a conformant stop).
      ['lab-max-tokens-mid-tool-use', 'max_tokens', [], /^max_tokens .*stopped \(exit 0\)/],
      ['lab-stream-cut-mid-tool-use', 'end_turn', OPENCODE_RACE],
      // The broken attempt stays in its history (answered 200, as the API does): its whole first call was run (a.txt's
      // "alpha" in the result), the cut one answered "Tool execution aborted", then the retry's two calls run again.
      ['lab-sse-error-mid-tool-use', 'end_turn', ['cut_tool_use_executed']],
      ['lab-hallucinated-tool', 'end_turn', ['resent_turn_altered']],
      ['lab-empty-output', 'end_turn', []],
      // The 400 ends it (exit 1, nothing resent).
      ['lab-client-error-not-retried', 'model_error', [], /^model_error .*stopped \(exit 1\)/],
      // Six attempts, 2.6, 4.8, 9, 19.5 and 39.5 s apart (it doubles), then exit 1: bounded, and backing off.
      ['lab-retries-exhausted', 'model_error', [], /^model_error .*stopped \(exit 1\)/],
      ['lab-end-turn-with-tool-call', 'end_turn', []],
      ['lab-text-beside-tool-call', 'end_turn', []],
      ['lab-malformed-arguments', 'end_turn', []],
      // Its retry comes only after the mock dropped the stalled connection at 15 s.
      ['lab-stream-stall', 'end_turn', ['stall_not_detected']],
      ['lab-no-turn-cap', 'aborted', ['no_turn_cap'], NEVER_STOPPED],
      ['lab-large-file', 'end_turn', []],
      ['lab-max-tokens-mid-write', 'max_tokens', [], /^max_tokens .*stopped \(exit 0\)/],
      ['lab-stream-cut-mid-write', 'end_turn', OPENCODE_WRITE_RACE],
      // As on the read task: the broken attempt stays in its history, its whole first write ran (lab-first-<id>_cut1.txt
      // is there before the retry), the cut one is answered "Tool execution aborted" and left no file.
      ['lab-sse-error-mid-write', 'end_turn', ['cut_tool_use_executed']],
      // "The arguments provided to the tool are invalid: ... JSON parsing failed", and no file.
      ['lab-malformed-write', 'end_turn', []],
    ],
  },
];

/** A home folder that exists (Qwen Code exits 1 at start in a HOME it cannot find). */
function made(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Bodies' content blocks of a task's later requests (Messages wire). */
function blocksAfterFirst(requests: RecordedLine[], task: string): Array<Record<string, unknown>> {
  return evidence(requests, task)
    .slice(1)
    .flatMap((r) => (JSON.parse(r.body) as { messages: Array<{ content: unknown }> }).messages.flatMap((m) => (Array.isArray(m.content) ? (m.content as Array<Record<string, unknown>>) : [])));
}

/** The Responses wire's input items of every request after the first (function_call_output carries a result there). */
function inputItemsAfterFirst(requests: RecordedLine[], task: string): Array<Record<string, unknown>> {
  return evidence(requests, task)
    .slice(1)
    .flatMap((r) => {
      const input = (JSON.parse(r.body) as { input?: unknown }).input;
      return Array.isArray(input) ? (input as Array<Record<string, unknown>>) : [];
    });
}

/** A later request answers a call of the broken attempt (the mock's ids for it end in _cut1) with a.txt's content: it ran. */
function brokenAttemptCallRan(requests: RecordedLine[], task: string): boolean {
  const messages = requests.some((r) => r.task_id === task && r.side === null && 'messages' in (JSON.parse(r.body) as object));
  if (messages) return blocksAfterFirst(requests, task).some((b) => b['type'] === 'tool_result' && String(b['tool_use_id']).endsWith('_cut1') && JSON.stringify(b['content']).includes('alpha'));
  return inputItemsAfterFirst(requests, task).some((b) => b['type'] === 'function_call_output' && String(b['call_id']).endsWith('_cut1') && JSON.stringify(b['output']).includes('alpha'));
}

/** A later request answers a call of the broken attempt (its id ends in _cut1), whatever the answer says. */
function brokenAttemptAnswered(requests: RecordedLine[], task: string): boolean {
  const ids = [...blocksSafe(requests, task).filter((b) => b['type'] === 'tool_result').map((b) => String(b['tool_use_id'])), ...inputItemsAfterFirst(requests, task).filter((b) => b['type'] === 'function_call_output').map((b) => String(b['call_id']))];
  return ids.some((id) => id.endsWith('_cut1'));
}

function blocksSafe(requests: RecordedLine[], task: string): Array<Record<string, unknown>> {
  return evidence(requests, task).some((r) => 'messages' in (JSON.parse(r.body) as object)) ? blocksAfterFirst(requests, task) : [];
}

/** The workspace at the session's end holds a file a broken attempt's call made (its marker names the _cut1 id). */
function brokenAttemptLeftFile(sessions: LabJsonSession[], task: string): boolean {
  return (sessions.find((s) => s.task_id === task)?.workspace_gained ?? []).some((f) => /_cut1\.txt$/.test(f));
}

/** What a race row's checks are, from the evidence: per check, whether the broken attempt's call ran (and, for history_rewritten, whether its result was sent). */
function raceExpected(checks: string[], task: string, requests: RecordedLine[], sessions: LabJsonSession[]): string[] {
  if (!task.endsWith('-write')) return brokenAttemptCallRan(requests, task) ? checks : [];
  const ran = brokenAttemptLeftFile(sessions, task);
  return checks.filter((c) => (c === 'history_rewritten' ? ran && brokenAttemptAnswered(requests, task) : ran));
}

function evidence(requests: RecordedLine[], task: string): RecordedLine[] {
  return requests.filter((r) => r.task_id === task && r.side === null);
}

describe.skipIf(process.platform !== 'linux' || process.arch !== 'x64')('the lab against real CLI agents', () => {
  const runs = new Map<string, AgentLabRun[]>();
  const isolate = loopbackOnlyWorks();

  beforeAll(async () => {
    await Promise.all(
      AGENTS.map(async (agent) => {
        const installed = await installCli(...agent.pkg);
        const home = join(DIR, agent.name.replace(/\W+/g, '-'));
        runs.set(
          agent.name,
          await Promise.all(
            agent.shards.map(({ tasks, timeoutS }, k) =>
              labProcess({ tasks, command: agent.command(installed.resolve, made(join(home, `h${k}`))), timeoutS, dir: join(home, `lab${k}`), isolate }),
            ),
          ),
        );
      }),
    );
  }, 900_000);

  it.each(AGENTS.map((a) => [a.name, a] as const))('%s: every task completes or the lab says in one line why, and the verdicts are as its requests show', (_, agent) => {
    const parts = runs.get(agent.name) ?? [];
    const sessions = parts.flatMap((p) => p.sessions);
    const lines = new Map(parts.flatMap((p) => [...p.lines]));
    const seen = ALL.map((task): Row => {
      const s = sessions.find((x) => x.task_id === task);
      return [task, s?.stop ?? 'missing', s ? fired(s, agent.always) : []];
    });
    const report = sessions.map((s) => `${s.task_id}: ${lines.get(s.task_id)}\n${s.checks.flatMap((c) => c.violations.map((v) => `    ${c.check}: ${v.detail}`)).join('\n')}`).join('\n');
    const requests = parts.flatMap((p) => p.requests);
    expect(seen, report).toEqual(agent.findings.map(([task, stop, checks]) => [task, stop, RACES.has(checks) ? raceExpected(checks, task, requests, sessions) : checks]));
    for (const [task, , , line] of agent.findings) {
      const why = lines.get(task) ?? '';
      if (line) expect(why, task).toMatch(line);
      else expect(why, task).toMatch(/ script done /);
    }
    // The agent spoke only its wire, and everything it sent went to the lab (isolated: it could reach nothing else).
    expect([...new Set(parts.flatMap((p) => p.requests).map((r) => r.wire))]).toEqual([agent.wire]);
    expect(parts.every((p) => p.isolated === isolate)).toBe(true);
  });

  it('Claude Code: each alarm is what its recorded requests show', () => {
    const requests = (runs.get('Claude Code 2.1.328') ?? []).flatMap((p) => p.requests);
    // client_error_retried: the body that got the 400 is the next attempt's, byte for byte.
    const refused = evidence(requests, 'lab-client-error-not-retried');
    const at = refused.findIndex((r) => r.status === 400);
    expect(at).toBeGreaterThan(-1);
    expect(refused[at + 1]?.body).toBe(refused[at]?.body);
    for (const task of ['lab-stream-cut-mid-tool-use', 'lab-sse-error-mid-tool-use']) {
      if (!brokenAttemptCallRan(requests, task)) continue;
      // history_rewritten goes with it: an assistant message resent with more blocks than the request before sent it with.
      const assistants = evidence(requests, task).map((r) => (JSON.parse(r.body) as { messages: Array<{ role: string; content: unknown[] }> }).messages.filter((m) => m.role === 'assistant').map((m) => m.content.length));
      expect(assistants.some((sizes, i) => i > 0 && sizes.some((n, k) => assistants[i - 1]![k] !== undefined && n > assistants[i - 1]![k]!)), task).toBe(true);
    }
    // The *-write races: a broken attempt's file in the workspace goes with its call issued in the broken attempt, and
    // it was there before the retry's request arrived (the lab's listing at that request has it).
    for (const task of ['lab-stream-cut-mid-write', 'lab-sse-error-mid-write']) {
      const sessions = (runs.get('Claude Code 2.1.328') ?? []).flatMap((p) => p.sessions);
      if (!brokenAttemptLeftFile(sessions, task)) continue;
      const retry = evidence(requests, task).find((r) => r.attempt === 2);
      expect(retry?.workspace_gained.some((f) => /^lab-first-toolu_mock_1_0_cut1\.txt$/.test(f)), task).toBe(true);
    }
    // Nothing of the cut or malformed Write is on disk, and each was answered with an error.
    for (const task of ['lab-max-tokens-mid-write', 'lab-malformed-write']) {
      expect(evidence(requests, task).flatMap((r) => r.workspace_gained).filter((f) => f.startsWith('lab-')), task).toEqual([]);
      expect(blocksAfterFirst(requests, task).some((b) => b['type'] === 'tool_result' && b['tool_use_id'] === 'toolu_mock_1_0' && JSON.stringify(b['content']).includes('could not be parsed as JSON')), task).toBe(true);
    }
    // stall_not_detected: the retry after the stalled request came 15 s or more later.
    const stall = evidence(requests, 'lab-stream-stall');
    expect(stall[1]!.received_ms - stall[0]!.received_ms).toBeGreaterThanOrEqual(15_000);
    // no_turn_cap: far more turns than any task scripts, still going when the lab stopped it.
    expect(Math.max(...evidence(requests, 'lab-no-turn-cap').map((r) => r.turn ?? 0))).toBeGreaterThan(20);
  });

  it('opencode and Qwen Code: each alarm is what their recorded requests show', () => {
    const oc = (runs.get('opencode 1.18.33') ?? []).flatMap((p) => p.requests);
    // resent_turn_altered: the call the mock issued as find_config_file comes back named "invalid".
    const resent = evidence(oc, 'lab-hallucinated-tool').slice(1).flatMap((r) => (JSON.parse(r.body) as { input: Array<Record<string, unknown>> }).input);
    expect(resent.find((i) => i['type'] === 'function_call' && i['call_id'] === 'call_mock_1_0')).toMatchObject({ name: 'invalid' });
    // cut_tool_use_executed: the broken attempt's first call is answered with a.txt's content.
    const outputs = evidence(oc, 'lab-sse-error-mid-tool-use').slice(1).flatMap((r) => (JSON.parse(r.body) as { input: Array<Record<string, unknown>> }).input);
    expect(outputs.some((i) => i['type'] === 'function_call_output' && String(i['call_id']).endsWith('_cut1') && String(i['output']).includes('alpha'))).toBe(true);
    // On the write task the same: the broken attempt's first write left its file before the retry, the cut one none.
    const ocSessions = (runs.get('opencode 1.18.33') ?? []).flatMap((p) => p.sessions);
    const ocGained = ocSessions.find((x) => x.task_id === 'lab-sse-error-mid-write')?.workspace_gained ?? [];
    expect(ocGained).toContain('lab-first-call_mock_1_0_cut1.txt');
    expect(ocGained).not.toContain('lab-cut-call_mock_1_1_cut1.txt');
    expect(evidence(oc, 'lab-sse-error-mid-write').find((r) => r.attempt === 2)?.workspace_gained).toContain('lab-first-call_mock_1_0_cut1.txt');
    const qwen = (runs.get('Qwen Code 0.15.10') ?? []).flatMap((p) => p.requests);
    // malformed_arguments_executed: the mock sent write_file arguments that do not parse; the file they name was in the
    // workspace when the next request arrived, and that request's result says it was written.
    const written = evidence(qwen, 'lab-malformed-write');
    expect(written[1]?.workspace_gained).toEqual(['lab-malformed-call_mock_1_0.txt']);
    const results = (JSON.parse(written[1]!.body) as { messages: Array<Record<string, unknown>> }).messages.filter((m) => m['role'] === 'tool');
    expect(JSON.stringify(results)).toContain('Successfully created and wrote to new file');
    // transient_not_retried: one request for the broken stream, nothing after it.
    for (const task of ['lab-stream-cut-mid-tool-use', 'lab-sse-error-mid-tool-use', 'lab-stream-stall', 'lab-stream-cut-mid-write', 'lab-sse-error-mid-write']) expect(evidence(qwen, task), task).toHaveLength(1);
    // unbounded_retries: more than 10 attempts at turn 1, every one a 503.
    const attempts = evidence(qwen, 'lab-retries-exhausted');
    expect(attempts.length).toBeGreaterThan(10);
    expect(attempts.every((r) => r.turn === 1 && r.status === 503)).toBe(true);
  });
});
