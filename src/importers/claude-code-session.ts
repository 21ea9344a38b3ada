/**
 * What the Claude Code importer keeps per session while it reads a transcript
 * file (claude-code-transcript.ts): the pending tool_use blocks by id, the
 * model message being assembled from its lines, and what the session end will
 * need. Also the line facts several readers share.
 */
import type { PermissionMode } from '../events/labels.js';
import type { RecordRef } from './types.js';

export type Json = Record<string, unknown>;

export interface Call {
  tool: string;
  turn: number;
  ts: number | null;
}

export interface Message {
  id: string;
  turn: number;
  model: string | null;
  ts: number | null;
  stopReason: string | null;
  usage: Json | null;
  toolUses: number;
  ref: RecordRef;
}

export interface Session {
  sessionId: string;
  taskId: string;
  runId: string;
  first: number | null;
  last: number | null;
  ref: RecordRef;
  turns: number;
  permissionMode: PermissionMode | null;
  /** The tools offered (stream-json's init line lists them). */
  tools: string[] | null;
  message: Message | null;
  /** Responses seen (by message id), so a repeated line is not a second call. */
  responses: Set<string>;
  tokens: { input: number; output: number; read: number; write: number } | null;
  tokensKnown: boolean;
  pending: Map<string, Call>;
  done: Map<string, { tool: string; turn: number }>;
  /** `--output-format stream-json` output, not a transcript: its assistant lines carry the usage of the stream's start (output tokens not final). */
  stream: boolean;
  /** The stream's `result` line: the run's own totals. */
  result: Json | null;
  /** Denials announced by a system permission_denied line (stream-json), decided when the call's result says how (or at the end). */
  denied: Map<string, { ts: number | null; ref: RecordRef; turn: number; tool: string }>;
  deniedCount: number;
}

/** A fresh session, opened by the line at `ref`. */
export function newSession(sessionId: string, main: string, ref: RecordRef, stream: boolean): Session {
  return {
    sessionId,
    taskId: main,
    runId: `claude-code:${main}`,
    first: null,
    last: null,
    ref,
    turns: 0,
    permissionMode: null,
    tools: null,
    message: null,
    responses: new Set(),
    tokens: { input: 0, output: 0, read: 0, write: 0 },
    tokensKnown: true,
    pending: new Map(),
    done: new Map(),
    stream,
    result: null,
    denied: new Map(),
    deniedCount: 0,
  };
}

/** The ids every event of the session carries. */
export function sessionScope(s: Session) {
  return { run_id: s.runId, session_id: s.sessionId, task_id: s.taskId };
}

/** A line of `claude -p --output-format stream-json`: snake_case session_id, no sessionId. */
export const isStreamLine = (line: Json) => 'session_id' in line && !('sessionId' in line);

export const MODES: Readonly<Record<string, PermissionMode>> = { default: 'default', acceptEdits: 'acceptEdits', plan: 'plan', bypassPermissions: 'bypass' };
