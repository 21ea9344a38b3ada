/**
 * Items 6 and 7 of issue 29: `run --out` at a path that cannot be written is
 * refused before the first task (exit 2, the path and the reason named); a
 * provider with nothing listening on its port is named as such ("connection
 * refused to HOST:PORT") instead of an empty answer.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionReason } from '../../src/providers/connection-reason.js';
import { tempDir } from '../helpers/temp-dirs.js';
import { cli } from './cli-io.js';

function suite(dir: string, body: string): string {
  const file = join(dir, 'suite.yaml');
  writeFileSync(file, body);
  return file;
}

const slow = `suite: slow
tasks:
  - id: sleepy
    prompt: wait
    tools: [sleep]
    script:
      - tool_use: [{ name: sleep, input: { ms: 60000 } }]
      - text: done
`;

describe('run --out that cannot be written', () => {
  it('is refused before the first task: under a file, or a directory itself', async () => {
    const dir = tempDir();
    const file = suite(dir, slow);
    for (const out of [join(file, 'trace.jsonl'), dir]) {
      const started = Date.now();
      const r = await cli(['run', file, '--out', out], { env: { NO_COLOR: '1', TMPDIR: dir } });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^faultline: cannot write the trace ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: E(EXIST|NOTDIR|ISDIR)`));
      // No task ran: no task line, and far less than the task's minute of sleep.
      expect(r.stdout).not.toContain('sleepy');
      expect(Date.now() - started).toBeLessThan(30_000);
    }
  });
});

/** A port on 127.0.0.1 with nothing listening: bound once to learn a free one, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('a provider with nothing listening', () => {
  it('is named in the run output: connection refused to 127.0.0.1:PORT, with the attempts made', async () => {
    const dir = tempDir();
    const port = await closedPort();
    const file = suite(dir, `suite: live\ntasks:\n  - id: hello\n    prompt: say hello\n    max_retries: 1\n    expect: { answer: { contains: hello } }\n`);
    const r = await cli(['run', file, '--provider', 'openai-compatible', '--base-url', `http://127.0.0.1:${port}/v1`, '--model', 'qwen3', '--out', join(dir, 't.jsonl')], {
      env: { NO_COLOR: '1', TMPDIR: dir },
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`✗ hello: model call failed: connection: connection refused to 127.0.0.1:${port} (2 attempts)`);
  }, 60_000);

  it('reads the reason from the cause chain, an AggregateError of addresses included, never from message text', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:11434'), { code: 'ECONNREFUSED', address: '::1', port: 11434 });
    const both = Object.assign(new AggregateError([refused, Object.assign(new Error('x'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 11434 })]), { code: 'ECONNREFUSED' });
    const sdk = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: both }) });
    expect(connectionReason(sdk)).toBe('connection refused to [::1]:11434');
    const dns = new Error('Connection error.', { cause: new TypeError('fetch failed', { cause: Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND', hostname: 'nope.invalid' }) }) });
    expect(connectionReason(dns)).toBe('host not found: nope.invalid');
    expect(connectionReason(new Error('connection refused to 1.2.3.4:5'))).toBeNull();
  });
});
