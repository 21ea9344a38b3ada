/**
 * MockReply -> Anthropic Messages SSE (the streaming wire): message_start, a
 * ping, content_block_start/delta/stop per block (text_delta, input_json_delta),
 * message_delta with the stop reason and output usage, message_stop. Reuses the
 * JSON encoder for the message envelope, so both carry the same ids and usage.
 */
import { encodeAnthropicMessage, THINKING_SIGNATURE, type EncodeOptions } from './encode-anthropic.js';
import type { MockReply } from './engine.js';
import { cutJsonText } from './partial-json.js';
import { ARGUMENT_PIECE, pieces, sseFrame, TEXT_PIECE } from './sse-frame.js';

/** The arguments text streamed for a tool_use: raw_arguments verbatim, else the input; cut mid-string for a cut-off. */
function argumentText(block: Extract<MockReply['content'][number], { type: 'tool_use' }>, cut: boolean): string {
  const full = block.rawArguments ?? JSON.stringify(block.input);
  return cut ? cutJsonText(full) : full;
}

export function encodeAnthropicStream(reply: MockReply, options: EncodeOptions): string[] {
  const message = encodeAnthropicMessage(reply, options);
  const usage = message['usage'] as Record<string, unknown>;
  const frames: string[] = [];
  // message_start carries the message with empty content and no stop reason yet, as the API sends it.
  frames.push(sseFrame({ type: 'message_start', message: { ...message, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } }, 'message_start'));
  frames.push(sseFrame({ type: 'ping' }, 'ping'));
  const lastToolIndex = reply.content.map((b) => b.type).lastIndexOf('tool_use');
  const offset = reply.reasoning !== undefined ? 1 : 0;
  if (reply.reasoning !== undefined) {
    frames.push(sseFrame({ type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } }, 'content_block_start'));
    for (const thinking of pieces(reply.reasoning, TEXT_PIECE)) {
      frames.push(sseFrame({ type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking } }, 'content_block_delta'));
    }
    frames.push(sseFrame({ type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: THINKING_SIGNATURE } }, 'content_block_delta'));
    frames.push(sseFrame({ type: 'content_block_stop', index: 0 }, 'content_block_stop'));
  }
  reply.content.forEach((block, contentIndex) => {
    const index = contentIndex + offset;
    if (block.type === 'text') {
      frames.push(sseFrame({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start'));
      for (const text of pieces(block.text, TEXT_PIECE)) {
        frames.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } }, 'content_block_delta'));
      }
    } else {
      const start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
      frames.push(sseFrame({ type: 'content_block_start', index, content_block: start }, 'content_block_start'));
      // The API's first input_json_delta is an empty string.
      const parts = ['', ...pieces(argumentText(block, reply.cutToolInput && contentIndex === lastToolIndex), ARGUMENT_PIECE)];
      for (const partial_json of parts) {
        frames.push(sseFrame({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } }, 'content_block_delta'));
      }
    }
    frames.push(sseFrame({ type: 'content_block_stop', index }, 'content_block_stop'));
  });
  frames.push(
    sseFrame(
      { type: 'message_delta', delta: { stop_reason: reply.stopReason, stop_sequence: null }, usage: { output_tokens: reply.usage.output_tokens } },
      'message_delta',
    ),
  );
  frames.push(sseFrame({ type: 'message_stop' }, 'message_stop'));
  return frames;
}

/** The in-stream error event (e.g. overloaded mid-response), as the API sends it. */
export function anthropicStreamError(type: string, message: string): string {
  return sseFrame({ type: 'error', error: { type, message } }, 'error');
}
