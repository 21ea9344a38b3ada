/**
 * The mock's models make no OpenTelemetry spans through the Anthropic SDK
 * (their calls go to a scripted endpoint), while an adapter built without
 * that option keeps the SDK's instrumentation, and the two never share a
 * client even with the same key, base URL and fetch.
 */
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AnthropicModel } from '../providers/anthropic.js';
import { createMemoryMount } from './memory-mount.js';
import { mockAdapter } from './mock-adapter.js';

const exporter = new InMemorySpanExporter();
beforeAll(() => {
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
});
afterAll(() => {
  trace.disable();
});

const request = { messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'hi' }] }], tools: [], maxTokens: 16 };

it('a mock model calls without SDK spans; the same client options without sdkTelemetry: false make one per call', async () => {
  const mount = createMemoryMount();
  const quiet = mount.register([{ text: 'one' }], { wire: 'anthropic' });
  const model = mockAdapter({ wire: 'anthropic', baseURL: quiet.rootBaseURL, headers: quiet.headers, fetch: mount.fetch });
  expect((await model.complete(request)).content).toEqual([{ type: 'text', text: 'one' }]);
  expect(exporter.getFinishedSpans()).toHaveLength(0);

  const traced = mount.register([{ text: 'two' }], { wire: 'anthropic' });
  const plain = new AnthropicModel({ model: 'mock-claude', apiKey: 'mock-key', baseURL: traced.rootBaseURL, headers: traced.headers, fetch: mount.fetch });
  expect((await plain.complete(request)).content).toEqual([{ type: 'text', text: 'two' }]);
  expect(exporter.getFinishedSpans().length).toBeGreaterThan(0);
  quiet.close();
  traced.close();
});
