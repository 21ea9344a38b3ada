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
  unbounded_retries: { severity: 'error', source: 'a retry loop never ends', rule: 'retries of one turn are bounded (at most 10 attempts)' },
  no_backoff: { severity: 'warning', source: 'an immediate retry meets the same overload', rule: 'a retry without a server hint backs off (250 ms or more)' },
  transient_not_retried: { severity: 'warning', source: 'a transient error passes on retry', rule: 'a 429/5xx/529, reset or broken stream is retried' },
  empty_tool_result: { severity: 'warning', source: 'the model reads empty text as no answer', rule: 'an empty tool output is sent as explicit text, never as ""' },
  oversized_tool_result: { severity: 'warning', source: 'an oversized result floods the context', rule: 'a tool result stays under 50,000 bytes (truncate, spill, say so)' },
  hallucinated_tool_unanswered: { severity: 'error', source: 'every call needs an answer', rule: 'a call to a tool that does not exist gets an error result, not a crash or silence' },
  tools_dropped: { severity: 'error', source: 'Anthropic answers 400', rule: 'requests keep carrying tools once the conversation has tool calls' },
};

export const CHECK_IDS = Object.keys(CHECKS) as ConformanceCheck[];

/** Results bigger than this are `oversized_tool_result` (seed §9.2 keeps bash/grep at 30,000 characters). */
export const OVERSIZED_RESULT_BYTES = 50_000;
/** More attempts than this at one turn are `unbounded_retries`. */
export const MAX_ATTEMPTS = 10;
/**
 * A hintless retry sooner than this after the failure is `no_backoff`. The
 * SDKs' first back-off is 375-2000 ms; an immediate retry arrives in a few
 * ms, or a couple of hundred on a loaded machine.
 */
export const MIN_BACKOFF_MS = 250;
