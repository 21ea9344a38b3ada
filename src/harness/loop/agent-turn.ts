/**
 * The turns of the agent loop (docs/harness-rules.md#agent-loop): ask the model, run the tools it asks
 * for, send every result back in one message, until a stop condition holds (its reason is left on the state).
 */
import type { SessionFields } from '../../events/emitter.js';
import type { AssistantBlock, ModelResponse, RequestInfo, ToolResultBlock, ToolUseBlock, Usage } from '../../providers/types.js';
import type { HarnessConfig } from '../config.js';
import type { DefenseMeter } from '../defenses/meter.js';
import type { CallLedger } from '../pipeline/settlement.js';
import { runTurnCalls, type TurnCallsOptions } from '../pipeline/run-turn-calls.js';
import { StreamingTurn } from '../schedule/streaming-turn.js';
import { turnView } from './turn-view.js';
import { faultyDefinitions } from './faulty-definitions.js';
import { callModel } from './model-call.js';
import { prefixHash } from './prefix-hash.js';
import { decideTurn } from './turn-decision.js';
import { announceDeferred } from './announce-deferred.js';
import type { LoopState } from './loop-state.js';
import { packedMap } from '../packed-map.js';

export async function runTurns(s: LoopState): Promise<void> {
  const { model, registry, emitter, config, defenses, messages, usage, context, now, signal, system } = s;
  // One async frame per session, not one per turn: the turns run in this loop.
  while (s.explicit === null && s.errorStop === null && !signal.aborted) {
    // The token budget, counted as a defense: evaluated once per turn boundary, fired where it stops the loop.
    if (defenses.meter.check('token_budget', s.turn, overBudget(usage, config), 'stop')) {
      s.budgetStop = true;
      break;
    }
    if (s.turn >= config.maxTurns) break;
    const turn = ++s.turn;
    const ledger: CallLedger = new Map();
    const turnOptions: TurnCallsOptions = { ...s.callOptions, ledger };
    // tool_search loaded deferred tools: they are appended, so the earlier definitions stay a stable prefix (docs/harness-rules.md#stable-prefix).
    if (registry.definitions() !== s.tools) [s.tools, s.hash] = [registry.definitions(), prefixHash(system, registry.definitions())];
    const tools = s.tools;
    // Test-only faults change what is sent (and so the prefix) without the registry knowing.
    const sent = config.faults ? faultyDefinitions(tools, registry, config.faults) : tools;
    if (sent !== tools) s.hash = prefixHash(system, sent);
    const request = { system, messages, tools: sent, maxTokens: config.maxTokens, signal };
    // The context budget measures the history as it will be sent (its last measure is of the final, compacted
    // one): that is this request's description, unless an announcement is added to the history after it.
    let measured: RequestInfo | null = null;
    const prepared = context?.prepare(turn, messages, (m) => (measured = model.describeRequest({ ...request, messages: [...m] })).requestBytes);
    if (prepared?.stop) {
      s.explicit = 'context_limit';
      break;
    }
    const announced = announceDeferred(s.announcer, messages, turn, emitter, context?.compactedLastTurn === true);
    const info = measured !== null && !announced ? measured : model.describeRequest(request);
    // What deferring saves on this request: the unloaded definitions as this wire would send them (messages left out: only the tools are measured).
    const unloaded = registry.unloadedDefinitions?.() ?? [];
    const deferredBytes = unloaded.length === 0 ? 0 : model.describeRequest({ ...request, messages: [], tools: unloaded }).toolsBytes;
    const requested: SessionFields<'model_request'> = {
      turn,
      provider: model.provider,
      model: model.model,
      stream: info.stream,
      messages_count: messages.length,
      tools_count: tools.length,
      tools_bytes: info.toolsBytes,
      request_bytes: info.requestBytes,
      prefix_hash: s.hash,
      deferred_tools_bytes: deferredBytes,
    };
    if (prepared) requested.prompt_tokens_estimate = prepared.estimate;
    emitter.emit('model_request', requested);
    // Retries, back-off and one model_error per failed attempt live in model-call.ts.
    const streaming = config.streamingTools ? new StreamingTurn(turn, turnOptions) : null;
    const hooks = streaming?.modelHooks;
    const call = await callModel({ model, request, turn, emitter, retry: config.retry, deps: s.modelCallDeps, now, onToolUse: hooks?.onToolUse, onRetry: hooks?.onRetry });
    if (!call.ok) {
      if (streaming) await streaming.discard();
      if (!call.aborted) {
        s.errorStop = 'model_error';
        s.modelError = `${call.error.kind}: ${call.error.message} (${call.attempts === 1 ? '1 attempt' : `${call.attempts} attempts`})`;
      }
      break;
    }
    const response = call.response;
    const toolUses = response.content.filter((b) => b.type === 'tool_use');
    addUsage(usage, response.usage);
    context?.recordUsage(response.usage);
    emitter.emit('model_response', {
      turn,
      duration_ms: round(now() - call.startedAt), // the successful attempt only; failed ones are model_error events
      ttft_ms: response.ttftMs,
      stop_reason: response.stopReason?.slice(0, 64) ?? null,
      stop_class: response.stopClass,
      tool_use_count: toolUses.length,
      ...response.usage,
    });
    messages.push({ role: 'assistant', content: response.content });
    const finalText = textOf(response.content);
    s.finalText = finalText;

    const defenseStop = await defenses.afterModelResponse({
      turn,
      text: finalText,
      stopClass: response.stopClass,
      toolCalls: packedMap(toolUses, (b) => ({ turn, id: b.id, tool: b.name, input: b.input, inputError: b.inputError?.reason ?? null })),
      usage: { ...usage },
    });
    if (defenseStop !== null) {
      if (streaming) await streaming.discard();
      s.explicit = 'defense_stop';
      if (toolUses.length > 0) messages.push({ role: 'user', content: unexecutedResults(toolUses, defenseStop) });
      break;
    }
    const decision = decideTurn(response.stopClass, toolUses.length, {
      fallthrough: defenses.acts('end_turn_fallthrough'),
      cutGuard: defenses.acts('cut_tool_call_guard'),
      failClosed: defenses.acts('stop_reason_fail_closed'),
    });
    recordDefenses(defenses.meter, turn, response, toolUses.length, decision);
    if (decision.kind === 'stop') {
      if (streaming) await streaming.discard();
      s.explicit = decision.stop;
      // Nothing ran and nothing more is sent, but the history must stay valid for whoever resumes it (docs/harness-rules.md#one-result-per-call).
      if (toolUses.length > 0) {
        const why = `the turn ended with stop reason class "${decision.stop}", so the harness did not act on it.`;
        messages.push({ role: 'user', content: unexecutedResults(toolUses, why) });
      }
      break;
    }
    if (decision.kind === 'continue') {
      if (streaming) await streaming.discard();
      continue;
    }
    // Streaming: the calls may already be running (or done); otherwise the batch path runs them.
    const streamed = streaming ? await streaming.conclude(toolUses, decision.kind === 'execute') : null;
    const results =
      streamed ??
      (await runTurnCalls(toolUses, turn, { ...turnOptions, rejectAsCut: decision.kind === 'reject_cut_calls', hookMemo: streaming ? streaming.batchHooks : undefined }));
    if (streaming) await streaming.finish();
    await defenses.afterTurn(turnView(turn, finalText, toolUses, results, ledger, usage), s.label);
    // Defense reminders go after the results, in the same user message (docs/harness-rules.md#results-in-one-message: one message per turn).
    messages.push({ role: 'user', content: [...results, ...defenses.takeReminders()] });
    if (defenses.stopRequested) {
      s.explicit = 'defense_stop';
      break;
    }
    continue;
  }
}

/**
 * The three loop guards look at every model response, so each response is one
 * evaluation of each (docs/harness-rules.md#judged-vs-triggered: evaluations and triggers counted apart); a
 * trigger is counted only when the guard changed what the loop did.
 */
function recordDefenses(
  defenses: DefenseMeter,
  turn: number,
  response: ModelResponse,
  pending: number,
  decision: ReturnType<typeof decideTurn>,
): void {
  const endLike = response.stopClass === 'end_turn' || response.stopClass === 'stop_sequence';
  const cut = response.stopClass === 'max_tokens' || response.stopClass === 'context_window_exceeded';
  const unhandled = response.stopClass === 'null' || response.stopClass === 'unknown';
  defenses.check('end_turn_fallthrough', turn, endLike && pending > 0 && decision.kind === 'execute', 'fallthrough');
  defenses.check('cut_tool_call_guard', turn, cut && decision.kind === 'reject_cut_calls', 'block');
  defenses.check('stop_reason_fail_closed', turn, unhandled && decision.kind === 'stop' && decision.failClosed, 'stop');
}

/** Results for tool calls the loop refused to run (fail-closed, refusal or defense stop): history only, no call events. */
function unexecutedResults(toolUses: readonly ToolUseBlock[], why: string): ToolResultBlock[] {
  return toolUses.map((block) => ({ type: 'tool_result', tool_use_id: block.id, is_error: true, content: `${block.name} was not run: ${why}` }));
}

/** The text blocks joined by newlines (as flatMap + join, without an array per block). */
function textOf(content: readonly AssistantBlock[]): string {
  let text: string | null = null;
  for (const b of content) if (b.type === 'text') text = text === null ? b.text : `${text}\n${b.text}`;
  return text ?? '';
}

function overBudget(usage: Usage, config: HarnessConfig): boolean {
  return config.tokenBudget !== null && usage.input_tokens + usage.output_tokens >= config.tokenBudget;
}

function addUsage(total: Usage, add: Usage): void {
  total.input_tokens += add.input_tokens;
  total.output_tokens += add.output_tokens;
  total.cache_read_tokens += add.cache_read_tokens;
  total.cache_write_tokens += add.cache_write_tokens;
}

export function round(ms: number): number {
  return Math.max(0, Math.round(ms * 1000) / 1000);
}
