/** How a Claude Code tool result reads as a permission denial, from its text alone (older builds record nothing else). */
import { isObject } from './common.js';

/**
 * Claude Code's own words for a denied call, in the tool result it writes
 * instead of running the tool (`is_error: true`; `toolUseResult` /
 * `tool_use_result` repeats it with "Error: "): "Claude requested
 * permissions to <use X | write to P | read from P>, but you haven't granted
 * it yet." when the permission mode asked and nobody could answer (headless:
 * the default ask is a deny), and "The user doesn't want to proceed with this
 * tool use..." ("User rejected tool use") when a person said no. These are
 * fixed texts of the code path that decided, not a tool's output.
 */
export function permissionDenial(content: unknown, toolUseResult: unknown): 'default' | 'user' | null {
  const text = typeof content === 'string' ? content : Array.isArray(content) ? content.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('') : '';
  const extra = typeof toolUseResult === 'string' ? toolUseResult : '';
  if (/^(Error: )?Claude requested permissions to .*, but you haven't granted it yet\.?$/s.test(text.trim()) || /^Error: Claude requested permissions to /.test(extra)) return 'default';
  if (text.startsWith("The user doesn't want to proceed with this tool use") || extra === 'User rejected tool use') return 'user';
  return null;
}
