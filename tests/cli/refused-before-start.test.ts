/**
 * Mistakes a user makes on the command line end in one line and exit 2, and
 * a run refused before it starts writes nothing (issue 15, items 3, 6, 8).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-refused-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI in-process with `cwd` = a fresh directory, so a default `traces/<run-id>.jsonl` would land there. */
async function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const cwd = mkdtempSync(join(dir, 'cwd-'));
  let stdout = '';
  let stderr = '';
  const code = await run(args, { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), env: { NO_COLOR: '1', ...env }, cwd, isTTY: false });
  return { code, stdout, stderr, cwd };
}

function suite(name: string, ...lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const unscripted = suite('live.yaml', 'tasks:', '  - id: read-note', '    prompt: What does note.txt say?', '    tools: [read]');
const scripted = suite('mock.yaml', 'tasks:', '  - id: hello', '    prompt: hi', '    script: [{ text: hello }]');

describe('a run refused before it starts writes no trace', () => {
  it.each([
    ['no key', ['--provider', 'anthropic', '--model', 'm'], /^faultline: ANTHROPIC_API_KEY is not set/],
    ['no model', ['--provider', 'openai'], /^faultline: --model is required with --provider openai/],
    ['no base URL', ['--provider', 'openai-compatible', '--model', 'm'], /^faultline: --base-url is required with --provider openai-compatible/],
    ['--wire with a live provider', ['--provider', 'openai', '--model', 'm', '--wire', 'openai'], /^faultline: --wire chooses what the mock speaks/],
  ])('%s: exit 2, one line, no file at --out or under traces/', async (_why, flags, message) => {
    const out = join(dir, `${_why.replace(/\W+/g, '-')}.jsonl`);
    for (const args of [['run', unscripted, ...flags, '--out', out], ['run', unscripted, ...flags]]) {
      const { code, stderr, cwd } = await cli(args, { OPENAI_API_KEY: 'sk-test-0000' });
      expect(code).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(existsSync(out)).toBe(false);
      expect(readdirSync(cwd)).toEqual([]);
    }
  });

  it('a replay of a recording that is not there', async () => {
    const { code, stderr, cwd } = await cli(['run', scripted, '--replay', join(dir, 'no-recording')]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/is not a faultline recording/);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('an unknown tool is a load error with file:line:col, for every command that reads the suite', () => {
  const bad = suite('unknown-tool.yaml', 'tasks:', '  - id: t', '    prompt: hi', '    tools: [read, reed_file]', '    script: [{ text: x }]');
  const expected = `faultline: invalid suite: ${bad}:4:19: tasks.0.tools.1: unknown tool "reed_file"; tools: read, write, `;

  it('schema: one line, exit 2 (was an internal error with a stack)', async () => {
    const { code, stdout, stderr } = await cli(['schema', bad]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr.startsWith(expected)).toBe(true);
  });

  it('run: refused before any session (was a harness_error at run time with no file or line)', async () => {
    const { code, stderr, cwd } = await cli(['run', bad]);
    expect(code).toBe(2);
    expect(stderr.startsWith(expected)).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('faultline mock-server', () => {
  it('on a busy port: one line naming the port, exit 2 (was an internal error with a stack)', async () => {
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as { port: number }).port;
    try {
      const { code, stderr } = await cli(['mock-server', '--suite', scripted, '--task', 'hello', '--port', String(port)]);
      expect(code).toBe(2);
      expect(stderr).toBe(`faultline: port ${port} on 127.0.0.1 is already in use: choose another with --port (0 picks a free one)\n`);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});

describe('faultline run --wire', () => {
  it('runs a task pinned to another wire on its own wire, says so, and the run passes', async () => {
    mkdirSync(join(dir, 'pinned'));
    const pinned = join(import.meta.dirname, '../../suites/faults/protocol/017-pause-turn.yaml');
    const { code, stdout, stderr } = await cli(['run', pinned, scripted, '--wire', 'openai', '--out', join(dir, 'pinned', 't.jsonl')]);
    expect(stderr).toBe('faultline: --wire openai: 1 task runs on the wire it pins or where its fault exists: protocol-017-pause-turn (anthropic)\n');
    expect(stdout).toMatch(/2 passed, 0 failed/);
    expect(code).toBe(0);
  });

  it('runs a task whose fault does not exist on the forced wire (`wires`) on the first wire it lists, and names it', async () => {
    mkdirSync(join(dir, 'wires'));
    // Gemini never sends half a function call: the cut-call task lists the wires that can.
    const cut = join(import.meta.dirname, '../../suites/faults/protocol/001-max-tokens-mid-tool-use.yaml');
    const { code, stdout, stderr } = await cli(['run', cut, scripted, '--wire', 'gemini', '--out', join(dir, 'wires', 't.jsonl')]);
    expect(stderr).toBe('faultline: --wire gemini: 1 task runs on the wire it pins or where its fault exists: protocol-001-max-tokens-mid-tool-use (anthropic)\n');
    expect(stdout).toMatch(/2 passed, 0 failed/);
    expect(code).toBe(0);
  });
});
