/**
 * The lab against real third-party harnesses from npm (pinned exact in
 * devDependencies, all for Node 20, all offline): the OpenAI Agents SDK on
 * both OpenAI wires, LangChain's createAgent with @langchain/anthropic, and
 * the Vercel AI SDK on the Anthropic wire and on the Responses wire
 * streaming. Each script (tests/lab/harnesses/) is a harness as the
 * library's docs show one; the tools are the user's (they return an empty
 * string for an empty search, as user code does).
 *
 * What the lab finds is pinned below, per harness: the checks that fire (and
 * so every other exercised check passes), and how each session ends. A change
 * in a library version or in a check shows up here.
 */
import { describe, expect, it } from 'vitest';
import type { ConformanceCheck, TurnStop } from '../../src/events/labels.js';
import { details, lab, labTasks } from './lab-run.js';

const H = `${import.meta.dirname}/harnesses`;
const TASKS = ['lab-parallel-reads', 'lab-overloaded-then-success', 'lab-max-tokens-mid-tool-use', 'lab-stream-cut-mid-tool-use', 'lab-sse-error-mid-tool-use', 'lab-hallucinated-tool', 'lab-empty-output'];

interface Finding {
  command: string[];
  /** Per task (in TASKS order): how the session ended, and the checks that fired. */
  sessions: Array<[TurnStop, ConformanceCheck[]]>;
}

/** Every harness sends zod's `$schema` in every tool schema (156-171 bytes a request) and passes an empty tool output through as "". */
const ALWAYS: ConformanceCheck[] = ['undocumented_schema_keys'];

const FINDINGS: Record<string, Finding> = {
  'OpenAI Agents SDK 0.14.3, Responses API (its default)': {
    command: ['node', `${H}/openai-agents.mjs`, 'responses'],
    sessions: [
      ['end_turn', []],
      ['end_turn', []],
      ['end_turn', []],
      // A JSON body cut half-way after a 200: the SDK throws instead of retrying.
      ['model_error', ['transient_not_retried']],
      // Not streaming: the SSE error reaches it as the HTTP status of the same error (500 on the OpenAI wires), which it retries.
      ['end_turn', []],
      // "Tool find_config_file not found in agent": the run throws, the process exits 1.
      ['harness_error', ['hallucinated_tool_unanswered']],
      ['end_turn', ['empty_tool_result']],
    ],
  },
  'OpenAI Agents SDK 0.14.3, Chat Completions': {
    command: ['node', `${H}/openai-agents.mjs`, 'chat'],
    sessions: [
      ['end_turn', []],
      ['end_turn', []],
      ['end_turn', []],
      ['model_error', ['transient_not_retried']],
      ['end_turn', []],
      ['harness_error', ['hallucinated_tool_unanswered']],
      ['end_turn', ['empty_tool_result']],
    ],
  },
  'LangChain 1.5.14 createAgent + @langchain/anthropic 1.5.11': {
    command: ['node', `${H}/langchain-anthropic.mjs`],
    // @langchain/anthropic turns a ToolMessage into a tool_result with content and tool_use_id only: a failed
    // tool (ToolMessage status "error": a missing file, an unknown tool) reaches the model without is_error.
    sessions: [
      ['end_turn', ['error_result_unflagged']],
      ['end_turn', []],
      // It runs the tool call that max_tokens cut off (its partial input still parsed): the result carries notes.txt's content.
      ['harness_error', ['cut_tool_use_executed']],
      ['end_turn', ['error_result_unflagged']],
      ['end_turn', ['error_result_unflagged']],
      ['end_turn', ['error_result_unflagged']],
      ['end_turn', ['empty_tool_result']],
    ],
  },
  'AI SDK 6.0.333 + @ai-sdk/anthropic 3.0.140': {
    command: ['node', `${H}/ai-sdk.mjs`, 'anthropic'],
    sessions: [
      ['end_turn', []],
      ['end_turn', []],
      // It stops on the max_tokens turn without running the cut call: conformant.
      ['max_tokens', []],
      ['end_turn', []],
      ['end_turn', []],
      ['end_turn', []],
      ['end_turn', ['empty_tool_result']],
    ],
  },
  'AI SDK 6.0.333 + @ai-sdk/openai 3.0.141, Responses API, streaming': {
    command: ['node', `${H}/ai-sdk.mjs`, 'responses', 'stream'],
    sessions: [
      ['end_turn', []],
      ['end_turn', []],
      ['end_turn', []],
      // A stream broken mid-response is not retried.
      ['model_error', ['transient_not_retried']],
      // Nor is a stream ended by an SSE error event (overloaded) mid tool_use; it runs neither cut call.
      ['model_error', ['transient_not_retried']],
      ['end_turn', []],
      ['end_turn', ['empty_tool_result']],
    ],
  },
};

describe('the lab against third-party harnesses', () => {
  it.concurrent.each(Object.entries(FINDINGS))('finds what it found before in %s', async (_name, finding) => {
    const run = await lab(finding.command, labTasks(...TASKS), { timeoutMs: 30_000 });
    const seen = run.summary.sessions.map((s): [TurnStop, ConformanceCheck[]] => [s.stop, s.tallies.filter((t) => t.violations.length > 0 && !ALWAYS.includes(t.check)).map((t) => t.check)]);
    expect(seen, details(run).join('\n')).toEqual(finding.sessions);
    // The $schema finding holds in every session, and a harness never talks to the lab on a route it does not have.
    expect(run.summary.sessions.every((s) => s.tallies.find((t) => t.check === 'undocumented_schema_keys')!.violations.length === 1)).toBe(true);
    expect(run.summary.sessions.every((s) => s.sideRequests === 0)).toBe(true);
  }, 240_000);
});
