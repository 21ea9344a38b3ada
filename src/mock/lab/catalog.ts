/**
 * The lab's protocol-conformance checks: a stable id (the `check_id` label of
 * `conformance` events), a severity and why the rule holds, in words (the
 * verdict prints it; a user has the README, not the design notes). `error`: the
 * real API rejects it, or the harness does something wrong with the model's
 * turn; `warning`: it works, but costs money or misleads the model.
 */
import type { ConformanceCheck, ConformanceSeverity } from '../../events/labels.js';

export interface CheckInfo {
  severity: ConformanceSeverity;
  source: string;
  /** The rule, as the verdict states it. */
  rule: string;
}

export const CHECKS: Readonly<Record<ConformanceCheck, CheckInfo>> = {
  orphan_tool_use: { severity: 'error', source: 'the API answers 400', rule: 'every tool_use gets a tool_result in the next request' },
  orphan_tool_result: { severity: 'error', source: 'the API answers 400', rule: 'every tool_result answers a tool_use of the turn before it' },
  duplicate_tool_id: { severity: 'error', source: 'Anthropic answers 400', rule: 'tool_use ids are unique, each answered once' },
  split_tool_results: { severity: 'error', source: 'the model reads one turn\'s results as one answer', rule: "all results of one assistant turn go back in one message, nothing between them" },
  assistant_turn_missing: { severity: 'error', source: 'the API answers 400', rule: "the assistant's own tool_use turn is resent before its results" },
  tools_changed: { severity: 'warning', source: 'a changed prefix misses the prompt cache', rule: 'the tools payload stays byte-identical between turns (prompt-cache prefix)' },
  dynamic_prefix: { severity: 'warning', source: 'a changed prefix misses the prompt cache', rule: 'no timestamps, ids or counters in the system prompt or tool descriptions' },
  undocumented_schema_keys: { severity: 'warning', source: 'bytes no provider reads, paid on every request', rule: 'no keys no provider documents ($schema, $id, $comment) in tool schemas' },
  strict_schema_invalid: { severity: 'error', source: 'OpenAI answers 400', rule: 'a strict tool has a strict-valid schema (additionalProperties false; OpenAI: every property required)' },
  cut_tool_use_executed: { severity: 'error', source: 'a cut-off call has incomplete input', rule: 'a tool_use cut off (max_tokens, stream cut, SSE error) is never executed' },
  retry_after_ignored: { severity: 'warning', source: 'API retry-after', rule: 'a retry waits at least the retry-after(-ms) the server asked for' },
  client_error_retried: { severity: 'error', source: 'a 4xx fails the same way again', rule: 'a 400/401/403/404/413 is not retried unchanged' },
  unbounded_retries: { severity: 'error', source: 'more attempts than a retry budget allows hammer a failing server and hold the session for minutes', rule: 'retries of one turn are bounded (at most 10 attempts)' },
  no_backoff: { severity: 'warning', source: 'an immediate retry meets the same overload', rule: 'retries without a server hint wait longer than the same harness takes to retry when the server says it may retry at once' },
  transient_not_retried: { severity: 'warning', source: 'a transient error passes on retry', rule: 'a 429/5xx/529, reset or broken stream is retried' },
  empty_tool_result: { severity: 'warning', source: 'the model reads empty text as no answer', rule: 'an empty tool output is sent as explicit text, never as ""' },
  oversized_tool_result: { severity: 'warning', source: 'an oversized result floods the context', rule: 'a tool result stays under 50,000 bytes (truncate, spill, say so)' },
  hallucinated_tool_unanswered: { severity: 'error', source: 'every call needs an answer', rule: 'a call to a tool that does not exist gets an error result, not a crash or silence' },
  tools_dropped: { severity: 'error', source: 'Anthropic answers 400', rule: 'requests keep carrying tools once the conversation has tool calls' },
  tool_results_not_first: {
    severity: 'error',
    source: 'Anthropic answers 400 "Did not find N `tool_result` block(s) at the beginning of this message"',
    rule: 'the results of a turn come first in the next user message, together: nothing before them, nothing between them',
  },
  calls_left_unanswered: { severity: 'error', source: 'the model asked for work that never happened, and the history cannot be resumed', rule: 'a harness does not stop while calls it was given are unanswered (text beside calls, calls with end_turn)' },
  request_after_end: { severity: 'warning', source: 'every extra request is paid for and may act again', rule: 'no conversation request after the model ended it (a final answer without calls)' },
  resent_turn_altered: { severity: 'error', source: 'the model reads a history it never wrote (mis-bucketed stream deltas, calls run on partial input)', rule: 'the assistant turn resent carries the ids, names and inputs the model issued' },
  history_rewritten: { severity: 'warning', source: 'a rewritten earlier turn re-bills the whole cached prefix after it', rule: 'earlier messages are resent byte-for-byte (old results, thinking blocks kept)' },
  malformed_arguments_executed: { severity: 'error', source: 'a call whose arguments do not parse has no input to run', rule: 'a call with malformed arguments is answered with an error, never run (with {} or a guessed repair)' },
  oversized_tool_definitions: {
    severity: 'warning',
    source: "OpenAI's documented schema limits: 1,000 enum values, 15,000 characters in an enum of 250+, 10 levels, 5,000 properties, 128 tools",
    rule: 'tool definitions stay within what providers accept (a huge enum or schema is rejected or crowds the context)',
  },
  stall_not_detected: { severity: 'error', source: 'a stalled upstream holds the session forever', rule: 'a stream that stops sending bytes is given up on (an idle or first-byte timeout) and retried' },
  no_turn_cap: { severity: 'error', source: 'a model that never stops calling tools runs up cost without end', rule: 'the harness stops on its own after a bounded number of turns' },
  silent_truncation: { severity: 'warning', source: 'the model takes a cut output for the whole one', rule: 'a result shorter than the output says what it left out (a read paged by offset/limit says which part it is)' },
  error_result_unflagged: { severity: 'warning', source: 'the model reads an unflagged failure as output', rule: 'on the Messages wire, a failed call\'s result sets is_error' },
};

export const CHECK_IDS = Object.keys(CHECKS) as ConformanceCheck[];

/** Results bigger than this are `oversized_tool_result` (docs/harness-rules.md#truncate-and-spill keeps bash/grep at 30,000 characters). */
export const OVERSIZED_RESULT_BYTES = 50_000;
/** More attempts than this at one turn are `unbounded_retries`. */
export const MAX_ATTEMPTS = 10;
