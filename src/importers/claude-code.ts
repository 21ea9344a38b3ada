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
 * - Each tool result line of 2.1.x records the call's permission check and
 *   why a call did not run (`permissionDecision` / `toolDenialKind`;
 *   stream-json: `tool_result_meta`, see claude-code-permissions.ts): a
 *   `permission_decision` for every checked call, and a denied call is a
 *   `permission_denied` failure, not a tool_error. Older builds write only
 *   the fixed denial text (see permissionDenial).
 *
 * What a transcript does not know stays null: the request side of a model
 * call (sizes, tools, provider: Claude Code may run on Bedrock or Vertex),
 * model latency, a tool's own execution time (tool_use -> tool_result is
 * timed from line timestamps and marked `duration_source: timestamps`: it
 * includes streaming, permission prompts and hooks), session outcomes, and
 * (before 2.1) the decisions that allowed a call. Results
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
    'a failed tool result\'s kind is what Claude Code recorded of why it did not run (permission_denied, hook_blocked, aborted), else tool_error; builds before 2.1 record no permission check (only a denial\'s text), so allowed calls have no decision there',
    'stream-json per-message output tokens are not final (the session totals come from its result line); builds before 2.1 write no timestamps there (no durations but the run\'s own)',
    'no session outcome, turn-stop reason, model latency or request sizes',
  ],
  async importFile(path, ctx) {
    const transcript = new Transcript(path, ctx);
    await readJsonLines(path, ctx, (value, line) => transcript.line(value, ctx.record(line)));
    transcript.finish();
  },
};
