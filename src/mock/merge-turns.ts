/**
 * The Messages API combines consecutive user (or assistant) messages into one
 * turn before it checks anything; `role: "system"` messages (sent by some
 * harnesses mid-conversation) are not turns. Both the request check and the
 * decoder see the conversation as the API does, through this one merge.
 */
import { isObject, isString, type JsonObject } from './json-shape.js';

export interface MergedMessage {
  role: 'user' | 'assistant';
  content: JsonObject[];
  /** Wire index of the first message merged into this one (error texts name it). */
  index: number;
}

export function mergeTurns(messages: readonly unknown[]): MergedMessage[] {
  const out: MergedMessage[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    if (!isObject(message)) continue;
    const role = message['role'];
    if (role !== 'user' && role !== 'assistant') continue;
    const raw = message['content'];
    const content: JsonObject[] = isString(raw) ? [{ type: 'text', text: raw }] : Array.isArray(raw) ? raw.filter(isObject) : [];
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content, index });
  }
  return out;
}
