/**
 * A tiny stand-in for the real provider APIs on 127.0.0.1: it speaks the
 * non-streaming Anthropic Messages, OpenAI Chat Completions and Gemini
 * generateContent shapes, so the
 * live code path (official SDK, real HTTP) runs unchanged with only the base
 * URL swapped. The "model" reads a file on turn 1 and answers with what the
 * tool result said on turn 2; `answerFor` lets a test vary answers by session.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, any>; // `any`: raw wire JSON, inspected by tests field by field.
}

export interface CannedProvider {
  /** Root URL: Anthropic's SDK appends /v1/messages, Gemini's /v1beta/models/{model}:generateContent; OpenAI's needs `${root}/v1`. */
  root: string;
  requests: SeenRequest[];
  close(): Promise<void>;
}

export interface CannedOptions {
  /** Final answer for a session (0-based, counted by first-turn requests) given the tool result text. */
  answerFor?: (session: number, toolResult: string) => string;
}

const isGemini = (path: string) => /^\/v1beta\/models\/[^/:]+:generateContent/.test(path);

function lastToolResult(path: string, body: Record<string, any>): string {
  if (isGemini(path)) {
    const parts: any[] = (body.contents as any[]).flatMap((c) => c.parts ?? []);
    const output = [...parts].reverse().find((p) => p.functionResponse)?.functionResponse.response;
    return output === undefined ? '' : String(output.output ?? output.error ?? '');
  }
  const messages: any[] = body.messages ?? [];
  if (path.endsWith('/chat/completions')) return [...messages].reverse().find((m) => m.role === 'tool')?.content ?? '';
  for (const m of [...messages].reverse()) {
    const block = Array.isArray(m.content) ? m.content.find((b: any) => b.type === 'tool_result') : undefined;
    if (block) return typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
  }
  return '';
}

function anthropicReply(turn: number, n: number, answer: string): unknown {
  const usage = { input_tokens: 10, output_tokens: 5 };
  const base = { id: `msg_${n}`, type: 'message', role: 'assistant', model: 'canned', stop_sequence: null, usage };
  if (turn === 1) {
    return { ...base, content: [{ type: 'tool_use', id: `toolu_${n}`, name: 'read', input: { file_path: 'note.txt' } }], stop_reason: 'tool_use' };
  }
  return { ...base, content: [{ type: 'text', text: answer }], stop_reason: 'end_turn' };
}

function openaiReply(turn: number, n: number, answer: string): unknown {
  const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
  const base = { id: `chatcmpl-${n}`, object: 'chat.completion', created: 1, model: 'canned', usage };
  const message =
    turn === 1
      ? { role: 'assistant', content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name: 'read', arguments: '{"file_path":"note.txt"}' } }] }
      : { role: 'assistant', content: answer };
  return { ...base, choices: [{ index: 0, message, finish_reason: turn === 1 ? 'tool_calls' : 'stop' }] };
}

function geminiReply(turn: number, n: number, answer: string): unknown {
  const usageMetadata = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
  const parts = turn === 1 ? [{ functionCall: { id: `call_${n}`, name: 'read', args: { file_path: 'note.txt' } } }] : [{ text: answer }];
  return { candidates: [{ index: 0, content: { role: 'model', parts }, finishReason: 'STOP' }], usageMetadata, modelVersion: 'canned', responseId: `resp_${n}` };
}

export async function startCannedProvider(options: CannedOptions = {}): Promise<CannedProvider> {
  const requests: SeenRequest[] = [];
  const answerFor = options.answerFor ?? ((_s: number, result: string) => `The note says: ${result.replace(/^\s*\d+\t/, '').trim()}`);
  let sessions = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
      requests.push({ path, headers: req.headers, body });
      const assistantTurns = isGemini(path) ? (body.contents as any[]).filter((c) => c.role === 'model').length : (body.messages as any[]).filter((m) => m.role === 'assistant').length;
      const turn = assistantTurns + 1;
      const session = turn === 1 ? sessions++ : sessions - 1;
      const answer = answerFor(session, lastToolResult(path, body));
      const reply = isGemini(path) ? geminiReply(turn, requests.length, answer) : path.endsWith('/v1/messages') ? anthropicReply(turn, requests.length, answer) : openaiReply(turn, requests.length, answer);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    root: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
