/**
 * Runs the real OpenAI Agents SDK (@openai/agents, Responses API) against the
 * loopback mock with a trace processor that writes what the SDK exports
 * (`trace.toJSON()` / `span.toJSON()`, as its own exporters send them), one
 * JSON object per line. Returns the lines and what the run did.
 */
import { Agent, OpenAIProvider, Runner, setTraceProcessors, setTracingDisabled, tool, type TracingProcessor } from '@openai/agents';
import OpenAI from 'openai';
import { z } from 'zod';
import { startLoopbackServer } from '../../../src/mock/loopback-server.js';

export interface AgentsRun {
  lines: string[];
  truth: { requests: number; inputTokens: number; outputTokens: number; cachedTokens: number; toolCalls: number };
}

/** Two model calls around two tool calls (one throws), then the answer. */
const SCRIPT = [
  { tool_use: [{ name: 'get_weather', input: { city: 'Paris' } }, { name: 'get_weather', input: { city: 'Atlantis' } }], usage: { input_tokens: 150, output_tokens: 25, cache_read_tokens: 64 } },
  { text: 'Sunny in Paris.', usage: { input_tokens: 300, output_tokens: 9 } },
];

export async function runAgentsSdk(): Promise<AgentsRun> {
  const server = await startLoopbackServer();
  const lines: string[] = [];
  const collector: TracingProcessor = {
    onTraceStart: async () => {},
    onTraceEnd: async (trace) => void lines.push(JSON.stringify(trace.toJSON())),
    onSpanStart: async () => {},
    onSpanEnd: async (span) => void lines.push(JSON.stringify(span.toJSON())),
    shutdown: async () => {},
    forceFlush: async () => {},
  };
  setTraceProcessors([collector]);
  setTracingDisabled(false);
  try {
    const session = server.register(SCRIPT, { wire: 'responses' });
    const client = new OpenAI({ baseURL: session.baseURLs.responses, apiKey: 'test', maxRetries: 0 });
    const getWeather = tool({
      name: 'get_weather',
      description: 'The weather in a city.',
      parameters: z.object({ city: z.string() }),
      execute: async ({ city }) => {
        if (city === 'Atlantis') throw new Error('no such city');
        return `sunny in ${city}`;
      },
    });
    const agent = new Agent({ name: 'Weather', instructions: 'Answer about the weather.', tools: [getWeather], model: 'gpt-4.1' });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), workflowName: 'weather workflow' });
    const result = await runner.run(agent, 'Weather in Paris and Atlantis?');
    const usage = result.state.usage;
    const toolCalls = result.newItems.filter((i) => i.type === 'tool_call_item').length;
    return { lines, truth: { requests: usage.requests, inputTokens: usage.inputTokens, outputTokens: usage.outputTokens, cachedTokens: usage.inputTokensDetails.reduce((n, d) => n + (d.cached_tokens ?? 0), 0), toolCalls } };
  } finally {
    setTracingDisabled(true);
    setTraceProcessors([]);
    await server.close();
  }
}
