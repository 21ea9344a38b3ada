/**
 * Runs the official `openai` client, instrumented by OpenInference
 * (@arizeai/openinference-instrumentation-openai), against the loopback mock:
 * a hand-written tool loop inside one span of the user's own (a `run` span
 * of no GenAI kind, as an app wraps its work), spans collected in memory and
 * serialized by the official OTLP/JSON transformer.
 */
import { OpenAIInstrumentation } from '@arizeai/openinference-instrumentation-openai';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import OpenAI from 'openai';
import { startLoopbackServer } from '../../../src/mock/loopback-server.js';

export interface OpenInferenceRun {
  request: string;
  spans: number;
  truth: { calls: number; promptTokens: number; completionTokens: number; finishReasons: string[]; toolCalls: number };
}

const SCRIPT = [
  { tool_use: [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_time', input: { city: 'Paris' } }], usage: { input_tokens: 90, output_tokens: 21 } },
  { text: 'Sunny, noon.', usage: { input_tokens: 140, output_tokens: 6 } },
];

export async function runOpenInference(): Promise<OpenInferenceRun> {
  const server = await startLoopbackServer();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const instrumentation = new OpenAIInstrumentation({ tracerProvider: provider });
  instrumentation.manuallyInstrument(OpenAI);
  try {
    const session = server.register(SCRIPT, { wire: 'openai' });
    const client = new OpenAI({ baseURL: session.baseURLs.openai, apiKey: 'test', maxRetries: 0 });
    const tools = ['get_weather', 'get_time'].map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object', properties: { city: { type: 'string' } } } } }));
    const truth = { calls: 0, promptTokens: 0, completionTokens: 0, finishReasons: [] as string[], toolCalls: 0 };
    await provider.getTracer('app').startActiveSpan('run', async (run) => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather and time in Paris?' }];
      for (let i = 0; i < 4; i++) {
        const res = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
        const choice = res.choices[0] as OpenAI.ChatCompletion.Choice;
        truth.calls++;
        truth.promptTokens += res.usage?.prompt_tokens ?? 0;
        truth.completionTokens += res.usage?.completion_tokens ?? 0;
        truth.finishReasons.push(choice.finish_reason);
        const calls = choice.message.tool_calls ?? [];
        truth.toolCalls += calls.length;
        if (calls.length === 0) break;
        messages.push(choice.message);
        for (const c of calls) messages.push({ role: 'tool', tool_call_id: c.id, content: 'ok' });
      }
      run.end();
    });
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    return { request: new TextDecoder().decode(JsonTraceSerializer.serializeRequest([...spans])), spans: spans.length, truth };
  } finally {
    instrumentation.disable();
    await provider.shutdown();
    context.disable();
    trace.disable();
    await server.close();
  }
}
