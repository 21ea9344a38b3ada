/**
 * The conversation of a recorded session (`run --record <dir>`): the last
 * exchange's request messages plus its answer are the whole conversation.
 * Read as plain JSON (no provider code), each text passed through the
 * secret redaction the trace uses and cut to a readable length. The task id
 * comes from the trace (untrusted): only a plain name is looked up under the
 * recording, never a path.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { redactAndCap } from '../events/redact.js';

export interface ConversationPart {
  role: 'system' | 'user' | 'assistant';
  kind: 'text' | 'tool_use' | 'tool_result';
  text: string;
  error?: boolean;
}

/** A block's text is cut here: the view shows what was said, the recording keeps it whole. */
const PART_CHARS = 2_000;
const PLAIN_NAME = /^(?!\.\.?$)[A-Za-z0-9._-]{1,128}$/;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function partsOf(role: 'user' | 'assistant', content: unknown): ConversationPart[] {
  if (typeof content === 'string') return [{ role, kind: 'text', text: redactAndCap(content, PART_CHARS) }];
  if (!Array.isArray(content)) return [];
  return content.filter(isObj).map((b): ConversationPart => {
    if (b.type === 'tool_use') return { role, kind: 'tool_use', text: redactAndCap(`${String(b.name)}(${JSON.stringify(b.input ?? {})})`, PART_CHARS) };
    if (b.type === 'tool_result') return { role, kind: 'tool_result', text: redactAndCap(String(b.content ?? ''), PART_CHARS), error: b.is_error === true };
    return { role, kind: 'text', text: redactAndCap(String(b.text ?? ''), PART_CHARS) };
  });
}

/** The session's conversation, or null when the recording holds no exchange of it. */
export function readConversation(recording: string, task: unknown, repeat: unknown): ConversationPart[] | null {
  if (typeof task !== 'string' || !PLAIN_NAME.test(task)) return null;
  const dir = join(recording, task, `r${typeof repeat === 'number' && Number.isInteger(repeat) ? repeat : 0}`);
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir).filter((f) => /^\d+-turn-\d+\.json$/.test(f)).sort();
  for (const file of files.reverse()) {
    let exchange: unknown;
    try {
      exchange = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch {
      continue;
    }
    if (!isObj(exchange) || !isObj(exchange.request) || !Array.isArray(exchange.request.messages)) continue;
    const out: ConversationPart[] = [];
    if (typeof exchange.request.system === 'string') out.push({ role: 'system', kind: 'text', text: redactAndCap(exchange.request.system, PART_CHARS) });
    for (const m of exchange.request.messages.filter(isObj)) out.push(...partsOf(m.role === 'assistant' ? 'assistant' : 'user', m.content));
    if (isObj(exchange.response)) out.push(...partsOf('assistant', exchange.response.content));
    return out;
  }
  return null;
}

/** The lines of each part for the terminal: its own line breaks kept and indented, each line passed through `clean` (control characters escaped). */
export function conversationLines(parts: readonly { role: string; kind: string; text: string; error?: boolean }[], clean: (line: string) => string): string[] {
  return parts.flatMap((p) => {
    const head = p.kind === 'tool_use' ? `${p.role} → ` : p.kind === 'tool_result' ? `${p.role} ← ${p.error ? '(error) ' : ''}` : `${p.role}: `;
    return p.text.split('\n').map((line, i) => (i === 0 ? `  ${head}` : '      ') + clean(line.replace(/\t/g, '  ')));
  });
}
