/**
 * Runs the real Vercel AI SDK (ai 6 + @ai-sdk/anthropic) against the loopback
 * mock with telemetry on, collects its spans with an in-memory exporter and
 * serializes them as OTLP/JSON with the official transformer: exactly what a
 * user's OTLP exporter would send. Returns the export and what the script did.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { generateText, stepCountIs, streamText, tool } from 'ai';
import { z } from 'zod';
import { startLoopbackServer } from '../../../src/mock/loopback-server.js';

export interface AiSdkRun {
  /** One OTLP/JSON ExportTraceServiceRequest per span batch, as the official serializer writes it. */
  requests: string[];
  spans: number;
  /** What the run did, from the SDK's own result. */
  truth: { steps: number; toolCalls: number; toolErrors: number; inputTokens: number; outputTokens: number; finishReasons: string[] };
}

/** Three model calls: two tools at once, then one that throws, then the answer. */
const SCRIPT = [
  { tool_use: [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_time', input: { city: 'Paris' } }], usage: { input_tokens: 120, output_tokens: 30 } },
  { tool_use: [{ name: 'get_weather', input: { city: 'Atlantis' } }], usage: { input_tokens: 200, output_tokens: 12 } },
  { text: 'Paris is sunny; Atlantis is not a city.', usage: { input_tokens: 260, output_tokens: 18 } },
];

export async function runAiSdk(mode: 'generate' | 'stream' = 'generate'): Promise<AiSdkRun> {
  const server = await startLoopbackServer();
  // A real setup's context manager (what NodeTracerProvider.register installs): without one, no span has a parent.
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  try {
    const session = server.register(SCRIPT, { wire: 'anthropic' });
    const model = createAnthropic({ baseURL: `${session.baseURL}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const tools = {
      get_weather: tool({
        description: 'The weather in a city.',
        inputSchema: z.object({ city: z.string() }),
        execute: async ({ city }) => {
          if (city === 'Atlantis') throw new Error('no such city');
          return `sunny in ${city}`;
        },
      }),
      get_time: tool({ description: 'The local time in a city.', inputSchema: z.object({ city: z.string() }), execute: async () => '12:00' }),
    };
    const options = { model, tools, prompt: 'Weather and time in Paris, and the weather in Atlantis?', stopWhen: stepCountIs(5), maxRetries: 0, experimental_telemetry: { isEnabled: true, functionId: 'weather-agent', tracer: provider.getTracer('ai') } };
    const result = mode === 'stream' ? streamText(options) : await generateText(options);
    const steps = await result.steps;
    const usage = await result.totalUsage;
    const calls = steps.flatMap((s) => s.toolCalls);
    const errors = steps.flatMap((s) => s.content.filter((c) => c.type === 'tool-error'));
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    const requests = [new TextDecoder().decode(JsonTraceSerializer.serializeRequest([...spans]))];
    return {
      requests,
      spans: spans.length,
      truth: { steps: steps.length, toolCalls: calls.length, toolErrors: errors.length, inputTokens: usage.inputTokens ?? -1, outputTokens: usage.outputTokens ?? -1, finishReasons: steps.map((s) => s.finishReason) },
    };
  } finally {
    await provider.shutdown();
    context.disable();
    await server.close();
  }
}
