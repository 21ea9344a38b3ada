/**
 * Prompt-cache breakpoints for the Anthropic Messages API. The API caches
 * only up to blocks marked `cache_control: { type: "ephemeral" }` (at most 4
 * per request; a fifth is a 400), and reads the cache when a later request
 * repeats that prefix byte for byte. Without a breakpoint nothing is cached
 * and every turn pays for the whole prompt again.
 *
 * Two breakpoints, placed as the prefix is stable (the API renders tools,
 * then system, then messages):
 *  1. the stable prefix: the system prompt (which caches the tools before it
 *     too), or the last tool when there is no system prompt;
 *  2. the conversation: the last block of the last message, so the next turn
 *     reads everything up to here from the cache and only its new results are
 *     written.
 */
import type Anthropic from '@anthropic-ai/sdk';

export const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };
/** The Messages API's limit on cache_control blocks per request. */
export const MAX_CACHE_BREAKPOINTS = 4;

type Params = Anthropic.MessageCreateParamsNonStreaming;

export function withCacheBreakpoints(params: Params): Params {
  const out: Params = { ...params };
  if (typeof out.system === 'string' && out.system !== '') {
    out.system = [{ type: 'text', text: out.system, cache_control: EPHEMERAL }];
  } else if (out.tools && out.tools.length > 0) {
    out.tools = out.tools.map((tool, i, all) => (i === all.length - 1 ? ({ ...tool, cache_control: EPHEMERAL } as Anthropic.ToolUnion) : tool));
  }
  const last = out.messages[out.messages.length - 1];
  if (last && Array.isArray(last.content) && last.content.length > 0) {
    const content = [...last.content];
    const block = content[content.length - 1]!;
    // Thinking blocks cannot carry a breakpoint; the harness never sends one last, but do not mark one if it did.
    if (block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      content[content.length - 1] = { ...block, cache_control: EPHEMERAL } as Anthropic.ContentBlockParam;
      out.messages = [...out.messages.slice(0, -1), { ...last, content } as Anthropic.MessageParam];
    }
  }
  return out;
}
