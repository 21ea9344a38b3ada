import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTaskServer } from '../../src/cli/commands/mock-server.js';
import { CliError } from '../../src/cli/io.js';

const suite = join(import.meta.dirname, '../../suites/faults/protocol/006-rate-limited-429-retry-after.yaml');

function io() {
  const out = { stdout: '', stderr: '' };
  return { out, io: { stdout: (t: string) => void (out.stdout += t), stderr: (t: string) => void (out.stderr += t), env: {}, cwd: process.cwd(), isTTY: false } };
}

describe('faultline mock-server', () => {
  it("prints the base URLs and serves the task's script with its faults, logging each request", async () => {
    const { out, io: cliIo } = io();
    const server = await startTaskServer({ suite, task: 'protocol-006-rate-limited-429-retry-after-ms', port: '0' }, cliIo);
    try {
      expect(out.stdout).toContain(`anthropic base URL: ${server.origin}`);
      expect(out.stdout).toContain(`openai base URL:    ${server.origin}/v1`);
      expect(out.stdout).toContain(`responses base URL: ${server.origin}/v1`);
      const tools = [{ name: 'read', input_schema: { type: 'object' } }];
      const request = (extra: object = { tools }) =>
        fetch(`${server.origin}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 9, messages: [{ role: 'user', content: 'go' }], ...extra }) });
      // A harness's title call (no tools, while the script calls tools) is answered apart and takes no attempt.
      expect((await request({})).status).toBe(200);
      expect((await fetch(`${server.origin}/`, { method: 'HEAD' })).status).toBe(200);
      const first = await request();
      expect([first.status, first.headers.get('retry-after-ms')]).toEqual([429, '40']);
      expect((await request()).status).toBe(200);
      expect(out.stderr).toBe(
        'anthropic side request (no_tools) POST /v1/messages -> 200\nopenai side request (probe) HEAD / -> 200\nanthropic turn 1 attempt 1 -> 429\nanthropic turn 1 attempt 2 -> 200\n',
      );
    } finally {
      await server.close();
    }
  });

  it('serves the Gemini wire at the origin: the 429 carries its retry hint as RetryInfo in the body, the retry gets the reply', async () => {
    const { out, io: cliIo } = io();
    const server = await startTaskServer({ suite, task: 'protocol-006-rate-limited-429-retry-after-ms', port: '0' }, cliIo);
    try {
      expect(out.stdout).toContain(`gemini base URL:    ${server.origin}        (POST /v1beta/models/{model}:generateContent)`);
      const tools = [{ functionDeclarations: [{ name: 'read', parameters: { type: 'OBJECT', properties: { path: { type: 'STRING' } } } }] }];
      const request = () => fetch(`${server.origin}/v1beta/models/gemini-2.5-flash:generateContent`, { method: 'POST', headers: { 'x-goog-api-key': 'k' }, body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'go' }] }], tools }) });
      const first = await request();
      expect(first.status).toBe(429);
      expect(first.headers.get('retry-after-ms')).toBeNull();
      expect(await first.json()).toMatchObject({ error: { code: 429, status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '0.04s' }] } });
      const second = await request();
      expect(second.status).toBe(200);
      expect(await second.json()).toMatchObject({ candidates: [{ content: { role: 'model' }, finishReason: 'STOP' }] });
      expect(out.stderr).toBe('gemini turn 1 attempt 1 -> 429\ngemini turn 1 attempt 2 -> 200\n');
    } finally {
      await server.close();
    }
  });

  it("maps the script's generic tool names onto the harness's own tools, as the lab does", async () => {
    const lab = join(import.meta.dirname, '../../suites/lab/protocol.yaml');
    const server = await startTaskServer({ suite: lab, task: 'lab-empty-output', port: '0' }, io().io);
    try {
      const tools = [{ name: 'search_file_content', input_schema: { type: 'object', properties: { query: { type: 'string' } } } }];
      const reply = await fetch(`${server.origin}/v1/messages`, { method: 'POST', body: JSON.stringify({ model: 'm', max_tokens: 9, tools, messages: [{ role: 'user', content: 'Search for TODO.' }] }) });
      const body = (await reply.json()) as { content: Array<{ name?: string; input?: unknown }> };
      expect(body.content[0]).toMatchObject({ name: 'search_file_content', input: { query: 'TODO' } });
    } finally {
      await server.close();
    }
  });

  it('names the tasks when the id is wrong', async () => {
    const error = await startTaskServer({ suite, task: 'nope', port: '0' }, io().io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toContain('protocol-006b-rate-limited-429-retry-after-seconds');
  });

  it('says a missing suite file is missing (a usage error, not an internal one)', async () => {
    const error = await startTaskServer({ suite: 'no-such-suite.yaml', task: 'x', port: '0' }, io().io).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toBe('no-such-suite.yaml: no such suite file');
  });
});

describe("the README's mock-server example (item 13 of issue 29)", () => {
  it('names the port it asks for in the base URLs it gives, and the server serves on exactly that port', async () => {
    const readme = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8');
    // the paragraph that starts the harness-you-start-yourself example
    const start = readme.search(/^`faultline mock-server --suite <f> --task <id>/m);
    expect(start).toBeGreaterThan(0);
    const prose = readme.slice(start, readme.indexOf('Both\nspeak', start));
    const asked = /--port (\d+)`/.exec(prose)?.[1];
    expect(asked).toBeDefined();
    const urls = [...prose.matchAll(/http:\/\/127\.0\.0\.1:(\d+)/g)].map((m) => m[1]);
    expect(urls.length).toBeGreaterThan(0);
    expect(new Set(urls)).toEqual(new Set([asked]));
    // The port is free here (bound and released), so the example's command gets it: the URL printed uses it.
    const probe = createServer();
    const free = await new Promise<number>((resolve) => probe.listen(0, '127.0.0.1', () => resolve((probe.address() as { port: number }).port)));
    await new Promise((resolve) => probe.close(resolve));
    const { out, io: cliIo } = io();
    const server = await startTaskServer({ suite, task: 'protocol-006-rate-limited-429-retry-after-ms', port: String(free) }, cliIo);
    try {
      expect(out.stdout).toContain(`anthropic base URL: http://127.0.0.1:${free} `);
    } finally {
      await server.close();
    }
  });
});
