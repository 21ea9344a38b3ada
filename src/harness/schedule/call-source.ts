/**
 * Turns the tool_use blocks of a turn into pipeline calls, in arrival order.
 * An array is admitted all at once, so every `tool_call` event is written
 * before the first call runs (batch mode); a stream is admitted block by
 * block as the model finishes each one (streaming mode, docs/harness-rules.md#streaming-execution).
 */
import type { ToolUseBlock } from '../../providers/types.js';
import type { PipelineCall } from '../pipeline/call.js';
import type { CallSource } from './types.js';
import { packedMap } from '../packed-map.js';

export function mapCalls(blocks: readonly ToolUseBlock[] | AsyncIterable<ToolUseBlock>, admit: (block: ToolUseBlock) => PipelineCall): CallSource {
  if (!isAsyncIterable(blocks)) return packedMap(blocks, (block) => admit(block));
  return (async function* () {
    for await (const block of blocks) yield admit(block);
  })();
}

function isAsyncIterable<T>(value: readonly T[] | AsyncIterable<T>): value is AsyncIterable<T> {
  // Array.isArray first: it reads no map, so arrays of any kind take the same path without a deopt.
  return !Array.isArray(value) && typeof (value as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function';
}
