/**
 * The harness's invariants: rules that always hold, with no switch (unlike a
 * defense, which can be off). Every fault scenario names the defense or the
 * invariant it exercises (a task's `defense:` or `invariant:`); a test checks
 * both directions — every name a scenario uses exists, every invariant here
 * has a scenario.
 */
export interface Invariant {
  readonly id: string;
  readonly rule: string;
  readonly source: string;
}

export const INVARIANTS: readonly Invariant[] = [
  // protocol (docs/harness-rules.md#the-model-round-trip, docs/harness-rules.md#the-loop, docs/harness-rules.md#results-in-one-message, docs/harness-rules.md)
  { id: 'tool_result_pairing', rule: 'every tool_use gets exactly one tool_result, all results of a turn in one message', source: 'docs/harness-rules.md#one-result-per-call, docs/harness-rules.md#results-in-one-message' },
  { id: 'retry_policy', rule: '429/529/5xx and dropped connections are retried with back-off, honouring retry-after; 400/401/403/404/413 never; attempts bounded', source: 'docs/harness-rules.md#termination, docs/architecture.md#the-mock-provider' },
  { id: 'stream_integrity', rule: 'a stream cut, an SSE error or a reset mid-response is retried as a whole; nothing from the broken attempt runs', source: 'docs/harness-rules.md#streaming-execution, docs/architecture.md#the-mock-provider' },
  { id: 'slow_stream_tolerated', rule: 'a slow provider (late headers, gaps between events) is not an error: no retry, the turn completes, time to first token is recorded', source: 'docs/harness-rules.md#termination (stream timeouts catch a dead upstream, not a slow one)' },
  { id: 'stream_idle_cut', rule: 'a stream that stops sending mid-response is cut after the idle timeout (settable per suite and run) and retried as a whole; nothing from the cut attempt runs', source: 'the guide\'s termination set (stream timeouts for an upstream that hangs)' },
  { id: 'first_byte_cut', rule: 'a response that has not started after the first-byte timeout (settable per suite and run) is cut and retried; a slow but started response is not', source: 'the guide\'s termination set (stream timeouts for an upstream that hangs)' },
  { id: 'stop_reason_handling', rule: 'the loop continues only on tool_use; pause_turn continues, refusal and content filters stop', source: 'docs/harness-rules.md#stop-reasons' },
  { id: 'tool_call_assembly', rule: 'streamed tool-call arguments are assembled per call (OpenAI deltas by index), never mixed', source: 'docs/harness-rules.md#streaming-execution, docs/architecture.md#dependency-notes' },
  { id: 'malformed_arguments_answered', rule: 'empty, malformed or non-object arguments are answered with what was wrong, never run', source: 'docs/harness-rules.md#degeneration-fallbacks, docs/harness-rules.md#validation-errors' },
  { id: 'tool_use_id_uniqueness', rule: 'repeated or missing tool_use ids are renamed so each call keeps its own result', source: 'docs/harness-rules.md#one-result-per-call' },
  { id: 'unknown_tool_answered', rule: 'a hallucinated tool name is answered with an error result (not_found), never a crash', source: 'docs/harness-rules.md#unknown-tool' },
  // loop (docs/harness-rules.md#termination)
  { id: 'loop_termination', rule: 'the loop ends at max turns and attributes the stop to it', source: 'docs/harness-rules.md#termination' },
  { id: 'cancel_sources', rule: 'user abort, bash cascade and a call\'s own timeout are distinct failure kinds, each call answered', source: 'docs/harness-rules.md#cancel-sources' },
  // context budget
  { id: 'deferred_reannounced_after_compaction', rule: 'after a compaction the loaded deferred tools are announced again in full, so the model does not lose them with the elided tool_search results', source: 'the guide on announcing deferred tools: in full again after a compaction' },
  { id: 'compaction_keeps_pairs', rule: 'compaction elides result contents or drops whole turns (an assistant message with the messages answering it), never one side of a tool_use/tool_result pair', source: 'the guide\'s required loop components (context manager) and tool_use/tool_result pairing' },
  { id: 'context_limit_stop', rule: 'a prompt over the context window after compaction is not sent: the session stops with context_limit', source: 'the guide\'s termination set (context pressure)' },
  // pipeline (docs/harness-rules.md#the-tool-pipeline, docs/harness-rules.md#results, docs/harness-rules.md#deferred-tools)
  { id: 'hook_contract', rule: 'PreToolUse runs before permission, can block or rewrite (notice only when really changed); PostToolUse sees the output once', source: 'docs/harness-rules.md#pipeline-order, docs/harness-rules.md#hooks' },
  { id: 'hook_failure_contained', rule: 'a hook that throws or hangs blocks its own call (hook_error / hook_timeout); the harness never crashes and the other calls run', source: 'docs/harness-rules.md#hooks (hooks are user code at fixed points of the pipeline)' },
  { id: 'validation_advice', rule: 'an invalid input is answered field by field with what to send', source: 'docs/harness-rules.md#validation-errors, docs/harness-rules.md#two-path-divergence' },
  { id: 'strict_null_is_absent', rule: 'a null in an optional field (how OpenAI strict mode says "not provided") is read as absent before any stage judges the input; a null in a required field is still refused', source: 'the guide on the OpenAI strict dialect: optional fields as null unions, mapped back at validation' },
  { id: 'execution_time_apart', rule: 'a tool event records the tool body\'s own time (execution_ms) apart from the pipeline\'s (pipeline_ms: hooks, permission, validation, truncation); per-tool latency uses the former', source: 'the guide on per-tool latency from each call\'s own duration' },
  { id: 'deferred_tool_loading', rule: 'a deferred tool called before loading is answered with how to load it, not a schema guess', source: 'docs/harness-rules.md#validation-errors, docs/harness-rules.md#tool-search' },
  { id: 'failure_kind_at_call_site', rule: 'failure kinds are set by the code path that knows them; exception and tool_error never merge', source: 'docs/harness-rules.md#failure-kinds' },
  { id: 'explicit_empty_output', rule: 'an empty output is said in words, never an empty result', source: 'docs/harness-rules.md#empty-output' },
  { id: 'result_spill', rule: 'over the limit: head 70% + tail 30%, the full text spilled to a file the model is told about', source: 'docs/harness-rules.md#truncate-and-spill' },
  // concurrency (docs/harness-rules.md#concurrency, docs/harness-rules.md#streaming-execution)
  { id: 'partition_order', rule: 'greedy contiguous partition: a write between reads runs alone and in order', source: 'docs/harness-rules.md#greedy-partition' },
  { id: 'parallel_reads', rule: 'concurrency-safe calls of one batch run at the same time', source: 'docs/harness-rules.md#call-level-concurrency' },
  { id: 'bash_cascade', rule: 'a failing bash cancels later bash of the same turn only', source: 'docs/harness-rules.md#bash-cascade' },
  { id: 'pool_limit', rule: 'at most the pool size of calls run at once', source: 'docs/harness-rules.md#worker-pool' },
  { id: 'concurrency_safety_fail_closed', rule: 'a concurrency-safety check that throws counts as unsafe', source: 'docs/harness-rules.md#call-level-concurrency' },
  { id: 'streaming_tools_parity', rule: 'streaming tool execution gives the outcomes of batch execution, hooks once per call', source: 'docs/harness-rules.md#streaming-execution' },
  // permissions (docs/harness-rules.md#permissions)
  { id: 'permission_chain_order', rule: 'deny beats allow; modes apply after the safety steps', source: 'docs/harness-rules.md#permission-chain' },
  { id: 'shell_analysis', rule: 'compound commands, redirections, substitutions and pipes are parsed and each part judged', source: 'docs/harness-rules.md#shell-parsing' },
  { id: 'path_confinement', rule: 'paths outside the workspace (symlinks resolved) are refused or asked', source: 'docs/harness-rules.md#permission-chain' },
  { id: 'sensitive_files_denied', rule: 'secrets (SSH keys, cloud credentials) are refused to every tool in every mode, so an instruction injected into a tool result is stopped at the permission layer', source: 'docs/harness-rules.md#permission-chain (sensitive-file check), docs/harness-rules.md#result-injection (the permission layer is the only hard line)' },
  { id: 'headless_ask', rule: 'an ask with no one to answer is a deny, and a read-only allow list keeps headless work going', source: 'docs/harness-rules.md#fewer-prompts' },
  // MCP (docs/harness-rules.md#mcp)
  { id: 'mcp_pending_not_missing', rule: 'a tool of a server still connecting is "retry shortly", never "not found"', source: 'docs/harness-rules.md#mcp-pending' },
  { id: 'mcp_failed_server_explained', rule: 'a server that fails to start leaves the session running; its tools answer "unavailable" with the reason, never "not found"', source: 'docs/harness-rules.md#mcp-limits, docs/harness-rules.md#mcp-pending' },
  { id: 'mcp_call_timeout', rule: 'an MCP call past its timeout fails as timeout and sends notifications/cancelled', source: 'docs/harness-rules.md#mcp-reconnect' },
  { id: 'mcp_reconnect', rule: 'a server that exits is reconnected with back-off; its calls fail clearly meanwhile', source: 'docs/harness-rules.md#mcp-reconnect' },
  { id: 'mcp_limits', rule: 'descriptions capped at 2,048 characters, results limited in estimated tokens with a spill', source: 'docs/harness-rules.md#mcp-limits' },
  { id: 'mcp_stable_definitions', rule: 'MCP tool definitions keep a stable order and the first description across reconnects', source: 'docs/harness-rules.md#stable-prefix, docs/harness-rules.md#mcp-reconnect' },
  { id: 'mcp_server_trust', rule: 'MCP tools are judged per server (trusted / ask / deny)', source: 'docs/harness-rules.md#mcp-reconnect' },
  // green-but-broken (docs/harness-rules.md#green-but-broken): the report must show each form
  { id: 'report_shows_dead_defense', rule: 'a defense armed but never evaluated or never acting shows as unwired / unreached in the report', source: 'docs/harness-rules.md#dead-defense, docs/harness-rules.md#zero-trigger-triage' },
  { id: 'report_shows_judged_vs_triggered', rule: 'trigger counts that are really evaluation counts show as a mismatch with the trigger events', source: 'docs/harness-rules.md#judged-vs-triggered' },
  { id: 'report_shows_denominators', rule: 'success rates name their denominator, so refusals do not read as tool failures', source: 'docs/harness-rules.md#denominator-shift' },
  { id: 'report_shows_lost_calls', rule: 'a call started and never settled shows as lost = calls - successes - failures', source: 'docs/harness-rules.md#tool-funnel' },
  { id: 'report_shows_averaged_durations', rule: 'durations averaged over a batch show as identical durations in one batch', source: 'docs/harness-rules.md#per-call-durations' },
  { id: 'report_shows_prefix_collapse', rule: 'resident and deferred tool names sharing a prefix are flagged', source: 'docs/harness-rules.md#prefix-collapse' },
  { id: 'report_shows_state_before_init', rule: 'a rule that reads its state before the state is set never fires, and its neighbours prove the path ran', source: 'docs/harness-rules.md#state-before-init, docs/harness-rules.md#zero-trigger-triage' },
  { id: 'report_shows_description_loss', rule: 'tool definitions that lose part of their text on a second path show as a change in the tools payload', source: 'docs/harness-rules.md#two-path-divergence' },
  { id: 'report_shows_cache_busting', rule: 'a request prefix that changes within a session (a timestamp in a description) shows as prefix changes', source: 'docs/harness-rules.md#stable-prefix' },
];

export function invariant(id: string): Invariant | undefined {
  return INVARIANTS.find((i) => i.id === id);
}
