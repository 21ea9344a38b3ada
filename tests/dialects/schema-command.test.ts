import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';

function io(): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: {}, cwd: process.cwd(), isTTY: false };
}

describe('faultline schema', () => {
  it('prints the strict OpenAI tools payload with every property required and no $schema, and sizes that add up', async () => {
    const cli = io();
    const code = await run(['schema', 'suites/demo', '--provider', 'openai', '--strict'], cli);
    expect(code).toBe(0);
    const text = cli.out.join('');
    expect(text).not.toContain('$schema');
    const header = /^# openai \(strict on\): (\d+) tools, (\d+) bytes$/m.exec(text);
    expect(header).not.toBeNull();
    const json = text.slice(text.indexOf('['), text.lastIndexOf(']') + 1);
    const tools = JSON.parse(json) as Array<{ function: { name: string; strict: boolean; parameters: { properties: object; required: string[] } } }>;
    expect(tools).toHaveLength(Number(header![1]));
    expect(Buffer.byteLength(JSON.stringify(tools))).toBe(Number(header![2]));
    const read = tools.find((t) => t.function.name === 'read')!;
    expect(read.function.strict).toBe(true);
    expect(read.function.parameters.required).toEqual(Object.keys(read.function.parameters.properties));
    expect(text).toMatch(/^read\s+\d+ B$/m);
  });

  it('prints all three wires when no provider is named', async () => {
    const cli = io();
    expect(await run(['schema', 'suites/demo', '--sizes'], cli)).toBe(0);
    const text = cli.out.join('');
    expect(text).toContain('# anthropic (strict off)');
    expect(text).toContain('# openai (strict off)');
    expect(text).toContain('# responses (strict off)');
  });
});
