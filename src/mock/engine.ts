/**
 * The ONE scripted model engine (docs/architecture.md#the-mock-provider). Stateless and deterministic: the
 * turn is derived from the conversation itself (the model turns already in
 * it, one per run of assistant messages as the decoders merge them), never
 * from a request count, so the same request always gets the same reply, on
 * any mount and any wire, and a retry or an interleaved side request cannot
 * shift the script. Turns with `match` are picked by content instead.
 */
import type { Message, TextBlock, ToolResultBlock, Usage } from '../providers/types.js';
import { isRule, type FaultSpec, type MatchSpec, type ModelScript, type ReplySpec, type ResultCondition, type TurnSpec } from './script.js';

export interface MockToolUse {
  type: 'tool_use';
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Exact wire arguments text; overrides `input` on the wire. */
  rawArguments?: string;
  /** The input and raw text before `{call_id}` was filled in: a re-issue under another id (a broken attempt's) fills it again. */
  template?: { input: Record<string, unknown>; rawArguments?: string };
}

/** Written in a script's tool input, stands for the id the call is issued with (a side effect unique to the call). */
export const CALL_ID_PLACEHOLDER = '{call_id}';

function fill(value: unknown, id: string): unknown {
  if (typeof value === 'string') return value.split(CALL_ID_PLACEHOLDER).join(id);
  if (Array.isArray(value)) return value.map((v) => fill(v, id));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, id)]));
  return value;
}

/** The input as JSON text with the comma between its first two members left out (one member: the closing brace). */
function withoutFirstComma(input: Record<string, unknown>): string {
  const members = Object.entries(input).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`);
  if (members.length < 2) return `{${members.join('')}`;
  return `{${members[0]} ${members.slice(1).join(', ')}}`;
}

/** The call issued under `id`: `{call_id}` in its input (and raw arguments) filled with it. */
export function issuedWithId(block: MockToolUse, id: string): MockToolUse {
  if (block.template === undefined) return { ...block, id };
  const out: MockToolUse = { ...block, id, input: fill(block.template.input, id) as Record<string, unknown> };
  if (block.template.rawArguments !== undefined) out.rawArguments = fill(block.template.rawArguments, id) as string;
  return out;
}

export type MockBlock = TextBlock | MockToolUse;

/** A wire-neutral reply; the encoders put it on each wire. */
export interface MockReply {
  /** 1-based turn number. */
  turn: number;
  /** Index in the script of the content-matched turn that answered (`match`); absent for positional turns. */
  matched?: number;
  /** Text first, then tool_use blocks. */
  content: MockBlock[];
  /** Reasoning shown before the content (Responses reasoning item, Anthropic thinking block). */
  reasoning?: string;
  /** Anthropic vocabulary; `null` = no stop reason on the wire. */
  stopReason: string | null;
  usage: Usage;
  /** The script gave this turn's usage (else the mock may compute it, e.g. the prompt cache's share). */
  usageScripted?: boolean;
  /** Cut the last tool_use's arguments on the wire (a max_tokens cut-off). */
  cutToolInput: boolean;
  /** The turn's wire-level fault, if any; the mount decides per attempt whether it applies. */
  fault: FaultSpec | null;
}

export type EngineError = { code: 'script_exhausted' | 'no_rule_matched'; message: string };
export type EngineResult = { ok: true; reply: MockReply } | { ok: false; error: EngineError };

export interface EngineOptions {
  /** Prefix of generated tool ids: `toolu_mock` (Anthropic style) or `call_mock` (OpenAI style). */
  toolIdPrefix?: string;
  /** What content-matched turns look at besides the messages. */
  system?: string;
  toolCount?: number;
  /** Script tool name and input -> what goes on the wire (the lab maps generic names to the harness's tools). */
  mapTool?: (name: string, input: Record<string, unknown>) => { name: string; input: Record<string, unknown> };
  /**
   * The model turns a conversation already holds (default: its assistant
   * messages). The lab counts only what the mock itself issued, so a
   * harness's own canned assistant turn or a broken attempt kept in the
   * history does not move the script.
   */
  turnsTaken?: (messages: readonly Message[]) => number;
  /** What `turnsTaken` gives for these messages, when the caller counted already (the count is not repeated). */
  taken?: number;
}

const DEFAULT_USAGE: Usage = { input_tokens: 100, output_tokens: 20, cache_read_tokens: 0, cache_write_tokens: 0 };

/** Tool results of the last user message, each with the name of the call it answers (from the preceding assistant message). */
function lastResults(messages: Message[]): Array<{ result: ToolResultBlock; tool: string | null }> {
  const last = messages[messages.length - 1];
  if (!last || last.role !== 'user') return [];
  const prev = messages[messages.length - 2];
  const names = new Map<string, string>();
  if (prev?.role === 'assistant') for (const b of prev.content) if (b.type === 'tool_use') names.set(b.id, b.name);
  return last.content.flatMap((b) => (b.type === 'tool_result' ? [{ result: b, tool: names.get(b.tool_use_id) ?? null }] : []));
}

/** Every field given must hold; `tool` narrows the results the other fields look at and requires at least one. */
export function conditionHolds(when: ResultCondition | undefined, messages: Message[], options: EngineOptions = {}): boolean {
  if (!when) return true;
  let results = lastResults(messages);
  if (when.tool !== undefined) {
    const tool = options.mapTool ? options.mapTool(when.tool, {}).name : when.tool;
    results = results.filter((r) => r.tool === tool);
    if (results.length === 0) return false;
  }
  if (when.any_error !== undefined && results.some((r) => r.result.is_error) !== when.any_error) return false;
  if (when.contains !== undefined && !results.some((r) => r.result.content.includes(when.contains as string))) return false;
  if (when.reminder !== undefined && !lastUserMessageText(messages).includes(when.reminder)) return false;
  return true;
}

/** The text blocks of the last message when it is the user's (a harness puts its reminders there, beside the results). */
function lastUserMessageText(messages: Message[]): string {
  const last = messages[messages.length - 1];
  return last?.role === 'user' ? last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') : '';
}

function lastUserText(messages: Message[]): string {
  const last = [...messages].reverse().find((m) => m.role === 'user');
  return last ? last.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n') : '';
}

function matches(match: MatchSpec, messages: Message[], options: EngineOptions): boolean {
  if (match.system !== undefined && !(options.system ?? '').includes(match.system)) return false;
  if (match.user !== undefined && !lastUserText(messages).includes(match.user)) return false;
  if (match.tools !== undefined && (options.toolCount ?? 0) > 0 !== match.tools) return false;
  return true;
}

/** The script's positional turns (those without `match`), in order. */
export function positionalTurns(script: ModelScript): TurnSpec[] {
  return script.filter((t) => t.match === undefined);
}

/** A tool id the engine generated (`<prefix>_<turn>_<index>`): its turn number. */
const ISSUED_ID = /^[A-Za-z]+_mock_(\d+)_\d+$/;

/**
 * The model turns already in a conversation: the 1-based turn a request asks
 * for is this plus one. Usually the number of assistant messages; a harness
 * that compacts its history drops whole old turns, so the turn number the
 * engine put in the ids of its own tool calls counts too (the later of the two).
 */
export function turnsTaken(messages: readonly Message[]): number {
  let issued = 0;
  let assistant = 0;
  for (const m of messages) {
    if (m.role !== 'assistant') continue;
    assistant++;
    for (const b of m.content) if (b.type === 'tool_use') issued = Math.max(issued, Number(ISSUED_ID.exec(b.id)?.[1] ?? 0));
  }
  return Math.max(assistant, issued);
}

function buildReply(spec: ReplySpec, turn: number, prefix: string, options: EngineOptions, matched?: number): MockReply {
  const content: MockBlock[] = [];
  if (spec.text !== undefined && spec.text !== '') content.push({ type: 'text', text: spec.text });
  (spec.tool_use ?? []).forEach((t, index) => {
    const call = options.mapTool ? options.mapTool(t.name, t.input) : { name: t.name, input: t.input };
    const raw = t.raw_arguments ?? (t.malformed === true ? withoutFirstComma(call.input) : undefined);
    const template: MockToolUse['template'] = { input: call.input, ...(raw !== undefined ? { rawArguments: raw } : {}) };
    const marked = JSON.stringify(template).includes(CALL_ID_PLACEHOLDER);
    const block: MockToolUse = { type: 'tool_use', id: '', name: call.name, input: call.input, ...(raw !== undefined ? { rawArguments: raw } : {}), ...(marked ? { template } : {}) };
    content.push(issuedWithId(block, t.id ?? `${prefix}_${turn}_${index}`));
  });
  const cutToolInput = spec.cut_tool_input === true;
  const hasToolUse = content.some((b) => b.type === 'tool_use');
  // Explicit null is kept: it is the "gateway dropped the stop reason" fault (docs/harness-rules.md#stop-reasons).
  const stopReason =
    spec.stop_reason !== undefined ? spec.stop_reason : cutToolInput ? 'max_tokens' : hasToolUse ? 'tool_use' : 'end_turn';
  const reply: MockReply = { turn, content, stopReason, usage: spec.usage ?? DEFAULT_USAGE, cutToolInput, fault: spec.fault ?? null };
  if (matched !== undefined) reply.matched = matched;
  if (spec.usage !== undefined) reply.usageScripted = true;
  if (spec.reasoning !== undefined) reply.reasoning = spec.reasoning;
  return reply;
}

function pick(spec: TurnSpec, messages: Message[], options: EngineOptions): ReplySpec | undefined {
  return isRule(spec) ? spec.rule.find((branch) => conditionHolds(branch.when, messages, options))?.then : spec;
}

export function runScript(script: ModelScript, messages: Message[], options: EngineOptions = {}): EngineResult {
  const index = options.taken ?? (options.turnsTaken ?? turnsTaken)(messages);
  const turn = index + 1;
  const prefix = options.toolIdPrefix ?? 'toolu_mock';
  const keyed = script.findIndex((t) => t.match !== undefined && matches(t.match, messages, options));
  if (keyed !== -1) {
    const reply = pick(script[keyed] as TurnSpec, messages, options);
    // A matched turn's ids carry its script index, so they never collide with the positional turns'.
    if (reply !== undefined) return { ok: true, reply: buildReply(reply, turn, `${prefix}_k${keyed}`, options, keyed) };
  }
  const turns = positionalTurns(script);
  const last = turns[turns.length - 1];
  const spec = turns[index] ?? (last !== undefined && !isRule(last) && last.repeat === true ? last : undefined);
  if (spec === undefined) {
    const message = `mock script exhausted: request for turn ${turn} but the script has ${turns.length} turns`;
    return { ok: false, error: { code: 'script_exhausted', message } };
  }
  const reply = pick(spec, messages, options);
  if (reply === undefined) {
    const message = `mock script: no rule branch of turn ${turn} matched the tool results of the last user message`;
    return { ok: false, error: { code: 'no_rule_matched', message } };
  }
  return { ok: true, reply: buildReply(reply, turn, prefix, options) };
}
