/**
 * Runs the real Vercel AI SDK 7 (`ai` 7 as the `ai-v7` alias beside ai 6,
 * with @ai-sdk/anthropic 4 as `@ai-sdk/anthropic-v4`) against the loopback
 * mock, with its telemetry integration from @ai-sdk/otel: `OpenTelemetry`
 * (GenAI semantic-convention spans: invoke_agent, chat, execute_tool,
 * agent_step) or `LegacyOpenTelemetry` (the ai 6 `ai.*` spans). Spans are
 * collected in memory and serialized by the official OTLP/JSON transformer.
 * Each tool times its own body, so durations can be compared.
 */
import { OpenTelemetry, LegacyOpenTelemetry } from '@ai-sdk/otel';
import { createAnthropic } from '@ai-sdk/anthropic-v4';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { generateText, isStepCount, tool } from 'ai-v7';
import { z } from 'zod';
import { startLoopbackServer } from '../../../src/mock/loopback-server.js';

export interface AiSdk7Run {
  request: string;
  spans: number;
  /** Spans by name prefix (`chat`, `execute_tool`, `step`, ...), as the SDK wrote them. */
  names: string[];
  truth: { steps: number; toolCalls: number; toolErrors: number; inputTokens: number; outputTokens: number; finishReasons: string[] };
  /** Each tool body's own time (ms), by tool call id, timed inside the body. */
  ownMs: Record<string, number>;
  /** Each tool's execution time as the SDK itself timed it (its onToolExecutionEnd event's toolExecutionMs), by tool call id. */
  sdkMs: Record<string, number>;
}

/** Three model calls: two tools at once, then one that throws, then the answer. */
const SCRIPT = [
  { tool_use: [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_time', input: { city: 'Paris' } }], usage: { input_tokens: 120, output_tokens: 30, cache_read_tokens: 50 } },
  { tool_use: [{ name: 'get_weather', input: { city: 'Atlantis' } }], usage: { input_tokens: 200, output_tokens: 12 } },
  { text: 'Paris is sunny; Atlantis is not a city.', usage: { input_tokens: 260, output_tokens: 18 } },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runAiSdk7(mode: 'semconv' | 'legacy'): Promise<AiSdk7Run> {
  const server = await startLoopbackServer();
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const ownMs: Record<string, number> = {};
  const sdkMs: Record<string, number> = {};
  const timed = async <T>(id: string, ms: number, body: () => T): Promise<T> => {
    const t0 = performance.now();
    try {
      await sleep(ms);
      return body();
    } finally {
      ownMs[id] = performance.now() - t0;
    }
  };
  try {
    const session = server.register(SCRIPT, { wire: 'anthropic' });
    const model = createAnthropic({ baseURL: `${session.baseURL}/v1`, apiKey: 'test' })('claude-sonnet-4-5');
    const tools = {
      get_weather: tool({
        description: 'The weather in a city.',
        inputSchema: z.object({ city: z.string() }),
        execute: ({ city }, { toolCallId }) =>
          timed(toolCallId, 40, () => {
            if (city === 'Atlantis') throw new Error('no such city');
            return `sunny in ${city}`;
          }),
      }),
      get_time: tool({ description: 'The local time in a city.', inputSchema: z.object({ city: z.string() }), execute: (_input, { toolCallId }) => timed(toolCallId, 10, () => '12:00') }),
    };
    const integration = mode === 'semconv' ? new OpenTelemetry({ tracer: provider.getTracer('ai') }) : new LegacyOpenTelemetry({ tracer: provider.getTracer('ai') });
    const result = await generateText({
      model,
      tools,
      prompt: 'Weather and time in Paris, and the weather in Atlantis?',
      stopWhen: isStepCount(5),
      maxRetries: 0,
      telemetry: { functionId: 'weather-agent', integrations: [integration] },
      onToolExecutionEnd: (e) => {
        sdkMs[e.toolCall.toolCallId] = e.toolExecutionMs;
      },
    });
    const errors = result.steps.flatMap((s) => s.content.filter((c) => c.type === 'tool-error'));
    await provider.forceFlush();
    const spans = exporter.getFinishedSpans();
    return {
      request: new TextDecoder().decode(JsonTraceSerializer.serializeRequest([...spans])),
      spans: spans.length,
      names: spans.map((s) => s.name.split(' ')[0] as string).sort(),
      truth: {
        steps: result.steps.length,
        toolCalls: result.steps.flatMap((s) => s.toolCalls).length,
        toolErrors: errors.length,
        inputTokens: result.totalUsage.inputTokens ?? -1,
        outputTokens: result.totalUsage.outputTokens ?? -1,
        finishReasons: result.steps.map((s) => s.finishReason),
      },
      ownMs,
      sdkMs,
    };
  } finally {
    await provider.shutdown();
    context.disable();
    await server.close();
  }
}
