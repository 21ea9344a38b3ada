/**
 * Claude Code session transcripts: `~/.claude/projects/<project>/<session>.jsonl`,
 * one JSON object per line, and subagent transcripts
 * (`<session>/subagents/agent-<id>.jsonl`, or sidechain lines in the main
 * file in older versions). Fields used, as Claude Code writes them:
 * - every line: `type`, `sessionId`, `timestamp` (ISO 8601), `isSidechain`,
 *   `agentId` (subagents), `permissionMode` (user lines);
 * - `assistant`: `message` is the Anthropic API message (`id`, `model`,
 *   `content` blocks, `stop_reason`, `usage` with `cache_read_input_tokens`
 *   and `cache_creation_input_tokens`); one API response is written as
 *   several lines sharing `message.id`, one per content block; a `tool_use`
 *   block has `id`, `name`, `input`. `isApiErrorMessage` marks a synthetic
 *   message standing for a failed request (`apiErrorStatus`);
 * - `user`: `message.content` is text or blocks; a `tool_result` block has
 *   `tool_use_id`, `content` and `is_error`; `toolUseResult` repeats it;
 * - `system`: `subtype` (`api_error` with `error.status`, `retryAttempt`,
 *   `retryInMs` for each retried request; others are bookkeeping);
 * - `attachment`: hook results (`hook_success`, `hook_blocking_error`,
 *   `hook_non_blocking_error`, ...) with `hookEvent`, `toolUseID`, `durationMs`.
 *
 * - `claude -p --output-format stream-json --verbose` output (what CI runs
 *   keep) is read too: `system`/`init`, `assistant` and `user` lines with
 *   snake_case `session_id` (a subagent's with `parent_tool_use_id`), no
 *   timestamps, and a final `result` line with the run's `usage`,
 *   `duration_ms`, `num_turns`, `is_error` and `permission_denials`. Its
 *   assistant lines are written as each message starts streaming, so their
 *   `output_tokens` are not final: the session totals are the result line's.
 * - A denied call's result is Claude Code's fixed denial text (see
 *   permissionDenial): a `permission_decision` deny and a
 *   `permission_denied` failure, not a tool_error.
 *
 * What a transcript does not know stays null: the request side of a model
 * call (sizes, tools, provider: Claude Code may run on Bedrock or Vertex),
 * model latency, a tool's own execution time (tool_use -> tool_result is
 * timed from line timestamps and marked `duration_source: timestamps`: it
 * includes streaming, permission prompts and hooks), session outcomes, the
 * decisions that allowed a call, and any failure kind beyond `tool_error` and
 * `permission_denied`. Results
 * pair with their tool_use by `tool_use_id`, never by order; a tool_use
 * without a result is left without one, so the funnel counts it as lost.
 */
import { isObject } from './common.js';
import { Transcript } from './claude-code-transcript.js';
import { readJsonLines } from './records.js';
import type { Importer, Sample } from './types.js';

const LINE_TYPES = new Set(['result', 'user', 'assistant', 'system', 'summary', 'attachment', 'progress', 'file-history-snapshot', 'queue-operation', 'permission-mode', 'last-prompt']);

function detect(sample: Sample): boolean {
  return sample.lines.some(
    (l) => isObject(l) && typeof l.type === 'string' && LINE_TYPES.has(l.type) && !('event' in l && 'v' in l) && ('sessionId' in l || 'parentUuid' in l || 'leafUuid' in l || 'messageId' in l || ('session_id' in l && 'uuid' in l)),
  );
}

export const claudeCode: Importer = {
  name: 'claude-code',
  title: 'Claude Code session transcripts (~/.claude/projects/<project>/*.jsonl, subagents included)',
  unit: 'line',
  extensions: ['.jsonl'],
  detect,
  notes: [
    'tool durations are tool_use to tool_result line timestamps (duration_source timestamps: they include streaming, permission prompts and hooks), so they are not per-tool latency',
    'a failed tool result says only is_error: its failure kind is tool_error, or permission_denied where Claude Code wrote its denial text; allowed calls record no permission decision',
    'stream-json output has no timestamps (no durations but the run\'s own) and per-message output tokens are not final there: the session totals come from its result line',
    'no session outcome, turn-stop reason, model latency or request sizes',
  ],
  async importFile(path, ctx) {
    const transcript = new Transcript(path, ctx);
    await readJsonLines(path, ctx, (value, line) => transcript.line(value, ctx.record(line)));
    transcript.finish();
  },
};
