/**
 * MockReply -> OpenAI Responses SSE, with the API's event names (openai 6.49.0
 * ResponseStreamEvent): response.created, response.in_progress, then per
 * output item output_item.added, its deltas (reasoning_summary_text.delta,
 * output_text.delta inside content_part.added/done, function_call_arguments
 * .delta/.done) and output_item.done, and finally response.completed (or
 * response.incomplete). Every event has an `event:` line and a
 * `sequence_number`, as the API sends them.
 */
import type { MockReply } from './engine.js';
import { encodeResponsesObject, responsesOutput, type ResponsesEncodeOptions } from './encode-responses.js';
import { ARGUMENT_PIECE, pieces, sseFrame, TEXT_PIECE } from './sse-frame.js';

type Item = Record<string, unknown>;

export function encodeResponsesStream(reply: MockReply, options: ResponsesEncodeOptions): string[] {
  const output = responsesOutput(reply, options.id);
  const final = encodeResponsesObject(reply, options, output);
  const frames: string[] = [];
  let sequence = 0;
  const emit = (type: string, fields: Item) => frames.push(sseFrame({ type, sequence_number: sequence++, ...fields }, type));
  const pending = { ...final, status: 'in_progress', incomplete_details: null, output: [], usage: null };
  emit('response.created', { response: pending });
  emit('response.in_progress', { response: pending });
  output.forEach((item, output_index) => {
    const item_id = item['id'];
    if (item['type'] === 'reasoning') {
      const text = ((item['summary'] as Item[])[0]?.['text'] as string) ?? '';
      emit('response.output_item.added', { output_index, item: { ...item, summary: [] } });
      emit('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const delta of pieces(text, TEXT_PIECE)) emit('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta });
      emit('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text });
      emit('response.reasoning_summary_part.done', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text } });
    } else if (item['type'] === 'message') {
      const part = (item['content'] as Item[])[0] as Item;
      const text = part['text'] as string;
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      emit('response.content_part.added', { item_id, output_index, content_index: 0, part: { ...part, text: '' } });
      for (const delta of pieces(text, TEXT_PIECE)) emit('response.output_text.delta', { item_id, output_index, content_index: 0, delta, logprobs: [] });
      emit('response.output_text.done', { item_id, output_index, content_index: 0, text, logprobs: [] });
      emit('response.content_part.done', { item_id, output_index, content_index: 0, part });
    } else {
      const args = item['arguments'] as string;
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of pieces(args, ARGUMENT_PIECE)) emit('response.function_call_arguments.delta', { item_id, output_index, delta });
      // A cut call never gets its arguments.done: the stream ends incomplete before the call was whole.
      if (item['status'] === 'completed') emit('response.function_call_arguments.done', { item_id, output_index, name: item['name'], arguments: args });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit(final['status'] === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: final });
  return frames;
}

/** The in-stream error event, as the API sends it (ResponseErrorEvent). */
export function responsesStreamError(code: string, message: string): string {
  return sseFrame({ type: 'error', code, message, param: null, sequence_number: 0 }, 'error');
}
