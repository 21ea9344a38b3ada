/**
 * The suite file format (YAML), validated with zod. Errors are reported with
 * the file and the path inside it (see load-suite.ts).
 */
import { z } from 'zod';
import { DefenseName, PermissionMode, SandboxMode, TurnStop } from '../events/labels.js';
import { SNAPSHOT_NAMES } from '../harness/context/snapshots.js';
import { ModelScript } from '../mock/script.js';
import { checkAssertionContract } from './assertion-contract.js';
import { AssertionSyntaxError, parseEventAssertion } from './event-assertion.js';
import { McpServersSettings } from './mcp-schema.js';

const TextMatch = z.union([
  z.strictObject({ contains: z.string() }),
  z.strictObject({ regex: z.string() }),
  z.strictObject({ equals: z.string() }),
  z.strictObject({ not_contains: z.string() }),
]);
export type TextMatch = z.infer<typeof TextMatch>;

const FileExpectation = z.union([TextMatch, z.strictObject({ exists: z.boolean() })]);
export type FileExpectation = z.infer<typeof FileExpectation>;

/**
 * An event assertion must parse and name events, fields and values the event
 * contract has. `params.offset` is where in the text the problem is, so the
 * loader can give its column.
 */
function checkAssertion(source: string, ctx: z.RefinementCtx): void {
  for (const problem of assertionProblems(source)) ctx.addIssue({ code: 'custom', message: problem.message, params: { offset: problem.offset } });
}

/**
 * What is wrong with an assertion, by its text: a suite repeats the same few
 * assertions in every task (2,000 tasks, one text: 2,000 parses and contract
 * checks of ~20 us each), and the answer depends on the text alone (the event
 * contract is fixed), so each text is checked once per process. Bounded, so a
 * process loading ever-new texts does not keep them all.
 */
const problemsByText = new Map<string, readonly AssertionProblem[]>();
const PROBLEMS_KEPT = 4096;

interface AssertionProblem {
  message: string;
  offset: number;
}

function assertionProblems(source: string): readonly AssertionProblem[] {
  let problems = problemsByText.get(source);
  if (problems === undefined) {
    problems = checkAssertionText(source);
    if (problemsByText.size >= PROBLEMS_KEPT) problemsByText.clear();
    problemsByText.set(source, problems);
  }
  return problems;
}

function checkAssertionText(source: string): AssertionProblem[] {
  let assertion;
  try {
    assertion = parseEventAssertion(source);
  } catch (error) {
    const offset = error instanceof AssertionSyntaxError ? error.offset : 0;
    return [{ message: `event assertion: ${(error as Error).message}`, offset }];
  }
  return checkAssertionContract(assertion).map((problem) => ({ message: `event assertion: ${problem.message}`, offset: problem.offset }));
}

export const TaskExpect = z.strictObject({
  /** Turn-stop attribution the session must end with (or one of several). */
  stop: z.union([TurnStop, z.array(TurnStop).min(1)]).optional(),
  /** Checks on the final answer text. */
  answer: z.union([TextMatch, z.array(TextMatch)]).optional(),
  /** Checks on workspace files after the run (paths relative to the workspace). */
  files: z.record(z.string(), FileExpectation).optional(),
  /** Event assertions, e.g. `count(tool_failure where failure_kind = not_found) == 1`, `lost == 0`. */
  events: z.array(z.string().superRefine(checkAssertion)).optional(),
});
export type TaskExpect = z.infer<typeof TaskExpect>;

const PermissionSettings = z.strictObject({
  mode: PermissionMode.optional(),
  /** No one can answer an ask: ask = deny (default true). */
  headless: z.boolean().optional(),
  /** When not headless: the scripted human's answer to every ask (default refuse). */
  human: z.enum(['approve', 'refuse']).optional(),
  rules: z
    .array(
      z.strictObject({
        id: z.string().min(1).max(128),
        effect: z.enum(['allow', 'ask', 'deny']),
        tool: z.string().min(1),
        pattern: z.string().optional(),
      }),
    )
    .optional(),
  disabled_tools: z.array(z.string()).optional(),
  /** Denials of one tool before the denial fuse trips (default 3). */
  fuse_threshold: z.number().int().positive().optional(),
});
export type PermissionSettings = z.infer<typeof PermissionSettings>;

/** Test-only (src/harness/faults.ts says what each reproduces). */
const HarnessFaults = z.strictObject({
  dead_defenses: z.array(DefenseName).min(1).optional(),
  unwired_defenses: z.array(DefenseName).min(1).optional(),
  claimed_defenses: z.array(DefenseName).min(1).optional(),
  count_evaluations_as_triggers: z.array(DefenseName).min(1).optional(),
  lose_settlement: z.boolean().optional(),
  average_durations: z.boolean().optional(),
  second_definition_path: z.boolean().optional(),
  timestamp_in_description: z.boolean().optional(),
  compaction_splits_pairs: z.boolean().optional(),
  compaction_forgets_deferred: z.boolean().optional(),
});

const TaskSettings = {
  tools: z.array(z.string()).optional(),
  max_turns: z.number().int().positive().optional(),
  token_budget: z.number().int().positive().optional(),
  max_tokens: z.number().int().positive().optional(),
  tool_timeout_ms: z.number().int().positive().optional(),
  system: z.string().optional(),
  /** Defense modules (relative to the suite file) exporting defenses made with defineDefense; armed like shipped ones. */
  defenses: z.array(z.string().min(1)).optional(),
  /** Defenses to switch off (to show a scenario fails without them). */
  disabled_defenses: z.array(DefenseName).optional(),
  /** Defenses that are off by default (shape_loop), switched on. */
  enabled_defenses: z.array(DefenseName).optional(),
  /** Times one defense may offer the same reminder before reminder_cap forces a wrap-up (default 3; distinct hints are not added up). */
  max_reminders: z.number().int().positive().optional(),
  /** Facts frozen into the system prompt at session start, as production harnesses do (docs/harness-rules.md#fact-source-conflict). */
  system_snapshot: z.array(z.enum(SNAPSHOT_NAMES)).min(1).optional(),
  /** A bash script run in the fresh workspace before the session (not a tool call: suite files are trusted, like hooks). */
  setup: z.string().min(1).optional(),
  /** Test-only faults switched into faultline's own harness (green-but-broken scenarios, see harness/faults.ts). */
  harness_faults: HarnessFaults.optional(),
  permission_mode: PermissionMode.optional(),
  /** Permission chain settings (default: acceptEdits, headless). `mode` here wins over `permission_mode`. */
  permissions: PermissionSettings.optional(),
  /** A JS/TS module exporting preToolUse / postToolUse, relative to the suite file. */
  hooks: z.string().min(1).optional(),
  /** Tools left out of the definitions until tool_search loads them (adds tool_search to the task). */
  deferred_tools: z.array(z.string()).optional(),
  /** Per-tool user-facing display of successful results: full, summary or hidden (errors always shown). */
  display_mode: z.record(z.string(), z.enum(['full', 'summary', 'hidden'])).optional(),
  /** Wire format the mock speaks for this task: Anthropic Messages, OpenAI Chat Completions, OpenAI Responses or Gemini generateContent. */
  wire: z.enum(['anthropic', 'openai', 'responses', 'gemini']).optional(),
  /** Strict tool use on the mock: the wire's strict schema subset plus `strict: true` (default false; live runs: `--strict`). */
  strict_tools: z.boolean().optional(),
  /**
   * How the SDK reaches the mock: memory (in-process fetch, the default) or
   * http (the loopback server's real sockets). A task pins http when its fault
   * is the socket's own; `transport_reason` says why.
   */
  transport: z.enum(['memory', 'http']).optional(),
  /** Why the task pins its transport (required with `transport`). */
  transport_reason: z.string().min(1).optional(),
  /**
   * The wires this task's fault exists on (default: every wire). A `--wire`
   * outside them runs the task on the first one listed, and the run names it
   * with the pinned tasks (e.g. Gemini never sends half a function call, so a
   * cut call's arguments cannot be put on that wire).
   */
  wires: z.array(z.enum(['anthropic', 'openai', 'responses', 'gemini'])).min(1).optional(),
  /** The adapter streams (SSE) for this task (default false); stream faults need it. */
  stream: z.boolean().optional(),
  /** Start concurrency-safe tool calls while the model is still streaming (docs/harness-rules.md#streaming-execution; needs `stream`). */
  streaming_tools: z.boolean().optional(),
  /** Anthropic: send prompt-cache breakpoints (default true); `faultline run --no-prompt-cache` turns them off. */
  prompt_cache: z.boolean().optional(),
  /** Streaming: longest wait for the next stream data before the attempt fails as a timeout and is retried (default 120000); `--stream-idle-timeout`. */
  stream_idle_timeout_ms: z.number().int().positive().optional(),
  /** Longest wait for a response to start (the first stream event; a whole non-streamed response) before the attempt fails as a timeout and is retried (default: none); `--first-byte-timeout`. */
  first_byte_timeout_ms: z.number().int().positive().optional(),
  /** Model-call retries after the first attempt (default 3; 0 = none). */
  max_retries: z.number().int().nonnegative().optional(),
  /** The model's context window in tokens, for the context manager (default 200000); `faultline run --context-window` overrides it. */
  context_window: z.number().int().positive().optional(),
  /** Share of the window at which old tool results are compacted (0 < x <= 1, default 0.8); `--compact-at` overrides it. */
  compact_at: z.number().gt(0).lte(1).optional(),
  /** The latest turns compaction never touches (default 2). */
  compact_keep_turns: z.number().int().positive().optional(),
  /** false: no context manager (the session runs until the provider refuses the prompt); `--no-context-manager`. */
  context_manager: z.boolean().optional(),
  /** MCP servers whose tools the task gets (see mcp-schema.ts). */
  mcp_servers: McpServersSettings.optional(),
  /** OS sandbox for bash (default auto: bubblewrap when it works here); `faultline run --sandbox` overrides it. */
  sandbox: SandboxMode.optional(),
  /** Keep the network inside the sandbox (default false: loopback only). */
  sandbox_network: z.boolean().optional(),
};

export const TaskSpec = z.strictObject({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,95}$/, 'task ids are letters, digits, _ . - (max 96)'),
  description: z.string().optional(),
  /** Fault scenario name this task reproduces (logged on session_start). */
  scenario: z.string().max(128).optional(),
  /** Fault catalog: the failure mode, in one line. */
  failure_mode: z.string().min(1).max(240).optional(),
  /** Fault catalog: where the failure mode is described (a link into docs/harness-rules.md, a public source). */
  source: z.string().min(1).optional(),
  /** Fault catalog: the defense this scenario must make fire (faultline verify-defense runs it). */
  defense: DefenseName.optional(),
  /** Fault catalog: the harness invariant this scenario exercises (src/harness/invariants.ts), when no defense is involved. */
  invariant: z.string().min(1).optional(),
  /** Control scenario: legitimate work of the same shape on which these defenses must not fire. */
  control_for: z.array(DefenseName).min(1).optional(),
  prompt: z.string().min(1),
  /** Fixture files written into the task's fresh workspace. */
  files: z.record(z.string(), z.string()).optional(),
  /** The mock model's script; absent for live runs. */
  script: ModelScript.optional(),
  /** Abort the session this long after it starts (abort scenarios). */
  abort_after_ms: z.number().int().positive().optional(),
  expect: TaskExpect.default({}),
  /**
   * The task is about a hallucinated tool: its script calls tools the task
   * does not offer on purpose (otherwise each such call is a load warning).
   */
  expect_unknown_tools: z.boolean().optional(),
  ...TaskSettings,
});
export type TaskSpec = z.infer<typeof TaskSpec>;

export const SuiteSpec = z.strictObject({
  suite: z.string().min(1).max(128).optional(),
  description: z.string().optional(),
  defaults: z.strictObject(TaskSettings).optional(),
  tasks: z.array(TaskSpec).min(1),
});
export type SuiteSpec = z.infer<typeof SuiteSpec>;
