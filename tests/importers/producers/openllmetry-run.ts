/**
 * Runs OpenLLMetry's SDK, @traceloop/node-server-sdk 0.27.0 (its openai
 * instrumentation, @traceloop/instrumentation-openai 0.27.0, inside),
 * instrumenting the official `openai` client against the loopback mock: a
 * hand-written tool loop in a `withWorkflow` span, one `withTask` around the
 * loop, each tool run in `withTool`. Spans go to an in-memory exporter (the
 * SDK's `exporter` option, no batching, no Traceloop sync: offline) and are
 * serialized by the official OTLP/JSON transformer.
 *
 * Installed into the test install cache (tests/helpers/cli-install.ts), not a
 * devDependency: the SDK pulls in every instrumentation and exporter it
 * supports (about 250 packages, 235 MB) for the one run of this test.
 */
import { createRequire } from 'node:module';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import OpenAI from 'openai';
import { installCli } from '../../helpers/cli-install.js';
import { startLoopbackServer } from '../../../src/mock/loopback-server.js';

export const TRACELOOP_VERSION = '0.27.0';

interface Traceloop {
  initialize(options: Record<string, unknown>): unknown;
  withWorkflow<T>(config: { name: string }, fn: () => Promise<T>): Promise<T>;
  withTask<T>(config: { name: string }, fn: () => Promise<T>): Promise<T>;
  withTool<T>(config: { name: string }, fn: () => Promise<T>): Promise<T>;
  forceFlush(): Promise<void>;
}

export interface OpenLlmetryRun {
  request: string;
  spans: number;
  /** `traceloop.span.kind` or `gen_ai.operation.name` of each span, as the SDK wrote them. */
  kinds: string[];
  truth: { calls: number; promptTokens: number; completionTokens: number; finishReasons: string[]; toolCalls: number; toolsThrown: number };
}

/** Two tools at once, then one that throws, then the answer. */
const SCRIPT = [
  { tool_use: [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_time', input: { city: 'Paris' } }], usage: { input_tokens: 90, output_tokens: 21 } },
  { tool_use: [{ name: 'get_weather', input: { city: 'Atlantis' } }], usage: { input_tokens: 120, output_tokens: 9 } },
  { text: 'Sunny at noon in Paris; Atlantis is not a city.', usage: { input_tokens: 140, output_tokens: 6 } },
];

const TOOLS: Record<string, (args: { city?: string }) => Promise<string>> = {
  get_weather: async ({ city }) => {
    if (city === 'Atlantis') throw new Error('no such city');
    return 'sunny';
  },
  get_time: async () => '12:00',
};

export async function runOpenLlmetry(): Promise<OpenLlmetryRun> {
  const installed = await installCli('@traceloop/node-server-sdk', TRACELOOP_VERSION);
  // Its CommonJS build (the package's main): 0.27.0's ESM build calls require() and does not load.
  const traceloop = createRequire(import.meta.url)(installed.resolve('@traceloop/node-server-sdk', 'dist/index.js')) as Traceloop;
  const server = await startLoopbackServer();
  const exporter = new InMemorySpanExporter();
  try {
    traceloop.initialize({ appName: 'weather', exporter: exporter as SpanExporter, disableBatch: true, traceloopSyncEnabled: false, silenceInitializationMessage: true, instrumentModules: { openAI: OpenAI }, apiKey: 'offline', baseUrl: 'http://127.0.0.1:9' });
    const session = server.register(SCRIPT, { wire: 'openai' });
    const client = new OpenAI({ baseURL: session.baseURLs.openai, apiKey: 'test', maxRetries: 0 });
    const tools = Object.keys(TOOLS).map((name) => ({ type: 'function' as const, function: { name, parameters: { type: 'object', properties: { city: { type: 'string' } } } } }));
    const truth = { calls: 0, promptTokens: 0, completionTokens: 0, finishReasons: [] as string[], toolCalls: 0, toolsThrown: 0 };
    await traceloop.withWorkflow({ name: 'weather_run' }, () =>
      traceloop.withTask({ name: 'answer' }, async () => {
        const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: 'Weather and time in Paris, and in Atlantis?' }];
        for (let i = 0; i < 5; i++) {
          const res = await client.chat.completions.create({ model: 'gpt-4.1-mini', messages, tools });
          const choice = res.choices[0] as OpenAI.ChatCompletion.Choice;
          truth.calls++;
          truth.promptTokens += res.usage?.prompt_tokens ?? 0;
          truth.completionTokens += res.usage?.completion_tokens ?? 0;
          truth.finishReasons.push(choice.finish_reason);
          const calls = (choice.message.tool_calls ?? []).filter((c) => c.type === 'function');
          if (calls.length === 0) break;
          messages.push(choice.message);
          for (const c of calls) {
            truth.toolCalls++;
            let content: string;
            try {
              const run = TOOLS[c.function.name] as (typeof TOOLS)[string];
              content = await traceloop.withTool({ name: c.function.name }, () => run(JSON.parse(c.function.arguments) as { city?: string }));
            } catch (error) {
              truth.toolsThrown++;
              content = `Error: ${(error as Error).message}`;
            }
            messages.push({ role: 'tool', tool_call_id: c.id, content });
          }
        }
      }),
    );
    await traceloop.forceFlush();
    const spans = exporter.getFinishedSpans();
    return {
      request: new TextDecoder().decode(JsonTraceSerializer.serializeRequest([...spans])),
      spans: spans.length,
      kinds: spans.map((s) => String(s.attributes['traceloop.span.kind'] ?? s.attributes['gen_ai.operation.name'])).sort(),
      truth,
    };
  } finally {
    await server.close();
  }
}
