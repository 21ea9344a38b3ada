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
  // protocol (seed §2, §4, §5.8; DESIGN §3)
  { id: 'tool_result_pairing', rule: 'every tool_use gets exactly one tool_result, all results of a turn in one message', source: 'seed §2.4, §5.8' },
  { id: 'retry_policy', rule: '429/529/5xx and dropped connections are retried with back-off, honouring retry-after; 400/401/403/404/413 never; attempts bounded', source: 'seed §4.4; DESIGN §4' },
  { id: 'stream_integrity', rule: 'a stream cut, an SSE error or a reset mid-response is retried as a whole; nothing from the broken attempt runs', source: 'seed §7.2; DESIGN §4' },
  { id: 'slow_stream_tolerated', rule: 'a slow provider (late headers, gaps between events) is not an error: no retry, the turn completes, time to first token is recorded', source: 'seed §4.4 (stream timeouts catch a dead upstream, not a slow one)' },
  { id: 'stream_idle_cut', rule: 'a stream that stops sending mid-response is cut after the idle timeout (settable per suite and run) and retried as a whole; nothing from the cut attempt runs', source: 'the guide\'s termination set (stream timeouts for an upstream that hangs)' },
  { id: 'first_byte_cut', rule: 'a response that has not started after the first-byte timeout (settable per suite and run) is cut and retried; a slow but started response is not', source: 'the guide\'s termination set (stream timeouts for an upstream that hangs)' },
  { id: 'stop_reason_handling', rule: 'the loop continues only on tool_use; pause_turn continues, refusal and content filters stop', source: 'seed §2.3' },
  { id: 'tool_call_assembly', rule: 'streamed tool-call arguments are assembled per call (OpenAI deltas by index), never mixed', source: 'seed §7.2; DESIGN §7' },
  { id: 'malformed_arguments_answered', rule: 'empty, malformed or non-object arguments are answered with what was wrong, never run', source: 'seed §4.5 F1, §5.5' },
  { id: 'tool_use_id_uniqueness', rule: 'repeated or missing tool_use ids are renamed so each call keeps its own result', source: 'seed §2.4' },
  { id: 'unknown_tool_answered', rule: 'a hallucinated tool name is answered with an error result (not_found), never a crash', source: 'seed §5.3' },
  // loop (seed §4.4)
  { id: 'loop_termination', rule: 'the loop ends at max turns and attributes the stop to it', source: 'seed §4.4' },
  { id: 'cancel_sources', rule: 'user abort, bash cascade and a call\'s own timeout are distinct failure kinds, each call answered', source: 'seed §6.7' },
  // context budget
  { id: 'deferred_reannounced_after_compaction', rule: 'after a compaction the loaded deferred tools are announced again in full, so the model does not lose them with the elided tool_search results', source: 'the guide on announcing deferred tools: in full again after a compaction' },
  { id: 'compaction_keeps_pairs', rule: 'compaction elides result contents or drops whole turns (an assistant message with the messages answering it), never one side of a tool_use/tool_result pair', source: 'the guide\'s required loop components (context manager) and tool_use/tool_result pairing' },
  { id: 'context_limit_stop', rule: 'a prompt over the context window after compaction is not sent: the session stops with context_limit', source: 'the guide\'s termination set (context pressure)' },
  // pipeline (seed §5, §9, §10)
  { id: 'hook_contract', rule: 'PreToolUse runs before permission, can block or rewrite (notice only when really changed); PostToolUse sees the output once', source: 'seed §5.2, §5.6' },
  { id: 'hook_failure_contained', rule: 'a hook that throws or hangs blocks its own call (hook_error / hook_timeout); the harness never crashes and the other calls run', source: 'seed §5.6 (hooks are user code at fixed points of the pipeline)' },
  { id: 'validation_advice', rule: 'an invalid input is answered field by field with what to send', source: 'seed §5.5, §13.11' },
  { id: 'strict_null_is_absent', rule: 'a null in an optional field (how OpenAI strict mode says "not provided") is read as absent before any stage judges the input; a null in a required field is still refused', source: 'the guide on the OpenAI strict dialect: optional fields as null unions, mapped back at validation' },
  { id: 'execution_time_apart', rule: 'a tool event records the tool body\'s own time (execution_ms) apart from the pipeline\'s (pipeline_ms: hooks, permission, validation, truncation); per-tool latency uses the former', source: 'the guide on per-tool latency from each call\'s own duration' },
  { id: 'deferred_tool_loading', rule: 'a deferred tool called before loading is answered with how to load it, not a schema guess', source: 'seed §5.5, §10.3' },
  { id: 'failure_kind_at_call_site', rule: 'failure kinds are set by the code path that knows them; exception and tool_error never merge', source: 'seed §5.7, §14.2' },
  { id: 'explicit_empty_output', rule: 'an empty output is said in words, never an empty result', source: 'seed §9.1' },
  { id: 'result_spill', rule: 'over the limit: head 70% + tail 30%, the full text spilled to a file the model is told about', source: 'seed §9.2, §9.3' },
  // concurrency (seed §6, §7)
  { id: 'partition_order', rule: 'greedy contiguous partition: a write between reads runs alone and in order', source: 'seed §6.3' },
  { id: 'parallel_reads', rule: 'concurrency-safe calls of one batch run at the same time', source: 'seed §6.2' },
  { id: 'bash_cascade', rule: 'a failing bash cancels later bash of the same turn only', source: 'seed §6.6' },
  { id: 'pool_limit', rule: 'at most the pool size of calls run at once', source: 'seed §6.5' },
  { id: 'concurrency_safety_fail_closed', rule: 'a concurrency-safety check that throws counts as unsafe', source: 'seed §6.2' },
  { id: 'streaming_tools_parity', rule: 'streaming tool execution gives the outcomes of batch execution, hooks once per call', source: 'seed §7.5' },
  // permissions (seed §8)
  { id: 'permission_chain_order', rule: 'deny beats allow; modes apply after the safety steps', source: 'seed §8.2' },
  { id: 'shell_analysis', rule: 'compound commands, redirections, substitutions and pipes are parsed and each part judged', source: 'seed §8.4' },
  { id: 'path_confinement', rule: 'paths outside the workspace (symlinks resolved) are refused or asked', source: 'seed §8.2, §8.3' },
  { id: 'sensitive_files_denied', rule: 'secrets (SSH keys, cloud credentials) are refused to every tool in every mode, so an instruction injected into a tool result is stopped at the permission layer', source: 'seed §8.2 (sensitive-file check), §8.6 (the permission layer is the only hard line)' },
  { id: 'headless_ask', rule: 'an ask with no one to answer is a deny, and a read-only allow list keeps headless work going', source: 'seed §8.5' },
  // MCP (seed §12)
  { id: 'mcp_pending_not_missing', rule: 'a tool of a server still connecting is "retry shortly", never "not found"', source: 'seed §12.4, §13.12' },
  { id: 'mcp_failed_server_explained', rule: 'a server that fails to start leaves the session running; its tools answer "unavailable" with the reason, never "not found"', source: 'seed §12.3 (5), §13.12 F12' },
  { id: 'mcp_call_timeout', rule: 'an MCP call past its timeout fails as timeout and sends notifications/cancelled', source: 'seed §12.5' },
  { id: 'mcp_reconnect', rule: 'a server that exits is reconnected with back-off; its calls fail clearly meanwhile', source: 'seed §12.5' },
  { id: 'mcp_limits', rule: 'descriptions capped at 2,048 characters, results limited in estimated tokens with a spill', source: 'seed §12.3' },
  { id: 'mcp_stable_definitions', rule: 'MCP tool definitions keep a stable order and the first description across reconnects', source: 'seed §3.5, §12.5' },
  { id: 'mcp_server_trust', rule: 'MCP tools are judged per server (trusted / ask / deny)', source: 'seed §12.5' },
  // green-but-broken (seed §13): the report must show each form
  { id: 'report_shows_dead_defense', rule: 'a defense armed but never evaluated or never acting shows as unwired / unreached in the report', source: 'seed §13.1 F1, §14.4' },
  { id: 'report_shows_judged_vs_triggered', rule: 'trigger counts that are really evaluation counts show as a mismatch with the trigger events', source: 'seed §13.3 F3' },
  { id: 'report_shows_denominators', rule: 'success rates name their denominator, so refusals do not read as tool failures', source: 'seed §13.4 F4' },
  { id: 'report_shows_lost_calls', rule: 'a call started and never settled shows as lost = calls - successes - failures', source: 'seed §14.1' },
  { id: 'report_shows_averaged_durations', rule: 'durations averaged over a batch show as identical durations in one batch', source: 'seed §14.7' },
  { id: 'report_shows_prefix_collapse', rule: 'resident and deferred tool names sharing a prefix are flagged', source: 'seed §10.5, §13.6 F6' },
  { id: 'report_shows_state_before_init', rule: 'a rule that reads its state before the state is set never fires, and its neighbours prove the path ran', source: 'seed §13.2 F2, §14.4' },
  { id: 'report_shows_description_loss', rule: 'tool definitions that lose part of their text on a second path show as a change in the tools payload', source: 'seed §13.11 F11' },
  { id: 'report_shows_cache_busting', rule: 'a request prefix that changes within a session (a timestamp in a description) shows as prefix changes', source: 'seed §3.5' },
];

export function invariant(id: string): Invariant | undefined {
  return INVARIANTS.find((i) => i.id === id);
}
