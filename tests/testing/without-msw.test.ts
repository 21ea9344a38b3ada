/**
 * msw is an optional peer: faultline/testing's registerSession(...).fetch and
 * mockFetch answer in process without it (the in-memory transport), so a
 * project that never installed msw gets the official SDK clients' answers,
 * statuses, streams and transport faults from them. The child node hides msw
 * from import and require (tests/helpers/hide-packages.mjs); it shows msw is
 * really gone there, since faultline/msw fails with the install command.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runHidingPackages } from '../helpers/child-node.js';

const testing = pathToFileURL(resolve('src/testing.ts')).href;
const mswEntry = pathToFileURL(resolve('src/msw.ts')).href;

const SCRIPT = `
  import Anthropic from '@anthropic-ai/sdk';
  import OpenAI from 'openai';
  import { createRequire } from 'node:module';
  const { registerSession, mockFetch, stopMockHub } = await import(${JSON.stringify(testing)});
  const out = {};
  out.mswImport = await import('msw').then(() => 'loaded', (e) => e.code);
  try { createRequire(import.meta.url)('msw'); out.mswRequire = 'loaded'; } catch (e) { out.mswRequire = e.code; }
  out.mswEntry = await import(${JSON.stringify(mswEntry)}).then(() => 'loaded', (e) => e.message);

  // The mock answers by the history it gets: a one-message request is turn 1, so one session per case.
  const ask = { model: 'claude-test', max_tokens: 50, messages: [{ role: 'user', content: 'hello' }] };
  const client = (turn) => {
    const session = registerSession([turn], { wire: 'anthropic' });
    return { session, anthropic: new Anthropic({ apiKey: 'test', baseURL: session.baseURL, fetch: session.fetch, maxRetries: 0 }) };
  };
  const plain = await client({ text: 'plain' }).anthropic.messages.create(ask).withResponse();
  out.plain = { text: plain.data.content[0].text, status: plain.response.status, type: plain.response.headers.get('content-type') };
  const stream = client({ text: 'streamed in parts', fault: { chunk_delay_ms: 1 } }).anthropic.messages.stream(ask);
  const events = [];
  stream.on('streamEvent', (e) => events.push(e.type));
  out.streamed = { text: (await stream.finalMessage()).content[0].text, events: [...new Set(events)] };
  const overloaded = client({ text: 'never', fault: { status: 529 } });
  out.overloaded = await overloaded.anthropic.messages.create(ask).then(() => 'answered', (e) => [e.constructor.name, e.status]);
  out.recorded = overloaded.session.requests.map((r) => r.status);
  out.reset = await client({ text: 'x', fault: { reset: true } }).anthropic.messages.create(ask).then(() => 'answered', (e) => e.constructor.name);

  const o = registerSession([{ text: 'from openai', tool_use: [{ name: 'read', input: { path: 'a.ts' } }] }], { wire: 'openai' });
  const openai = new OpenAI({ apiKey: 'test', baseURL: o.baseURL, fetch: mockFetch, maxRetries: 0 });
  const chat = await openai.chat.completions.create({ model: 'gpt-test', messages: [{ role: 'user', content: 'hi' }], tools: [{ type: 'function', function: { name: 'read', parameters: { type: 'object' } } }] });
  out.openai = { text: chat.choices[0].message.content, tool: chat.choices[0].message.tool_calls[0].function, finish: chat.choices[0].finish_reason };
  stopMockHub();
  process.stdout.write(JSON.stringify(out));
`;

describe('faultline/testing without msw installed', () => {
  it("a session's fetch and mockFetch serve the official Anthropic and OpenAI clients, streams and faults included", { timeout: 120_000 }, () => {
    const out = JSON.parse(runHidingPackages('msw', SCRIPT)) as Record<string, unknown>;
    expect(out['mswImport']).toBe('ERR_MODULE_NOT_FOUND');
    expect(out['mswRequire']).toBe('MODULE_NOT_FOUND');
    expect(out['mswEntry']).toContain('needs the optional peer dependency msw, which is not installed; install it with: npm i -D msw@2.15.0');
    expect(out['plain']).toEqual({ text: 'plain', status: 200, type: 'application/json' });
    expect(out['streamed']).toEqual({ text: 'streamed in parts', events: ['message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'] });
    expect(out['overloaded']).toEqual(['OverloadedError', 529]);
    expect(out['reset']).toBe('APIConnectionError');
    expect(out['recorded']).toEqual([529]);
    expect(out['openai']).toEqual({ text: 'from openai', tool: { name: 'read', arguments: '{"path":"a.ts"}' }, finish: 'tool_calls' });
  });
});
