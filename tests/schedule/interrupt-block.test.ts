/**
 * `write` and `edit` are not interrupted by a user abort once they run
 * (interruptBehavior block): through the whole harness, the user aborts while
 * the call runs, the call completes and reports what it did, and the session
 * still ends aborted without another turn. The control runs the same body
 * with `cancel`: it is stopped and reported aborted.
 */
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { editTool } from '../../src/harness/tools/edit.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import { writeTool } from '../../src/harness/tools/write.js';
import { run } from './harness.js';

/** The shipped tool, whose body first lets the user abort the session while it is running. */
function abortedWhileRunning<I>(tool: Tool<I>, abort: AbortController, override?: Pick<Tool, 'interruptBehavior'>): Tool<I> {
  return {
    ...tool,
    ...override,
    async execute(input, ctx) {
      abort.abort('user');
      await new Promise((r) => setTimeout(r, 30)); // the abort's listeners have run
      return tool.execute(input, ctx);
    },
  };
}

const script = (name: string, input: Record<string, unknown>) => [{ tool_use: [{ name, input }] }, { text: 'never reached' }];

describe('interruptBehavior block on the shipped file tools', () => {
  it('is set on write and edit', () => {
    expect(writeTool.interruptBehavior).toBe('block');
    expect(editTool.interruptBehavior).toBe('block');
  });

  it('lets a write the user aborts while it runs complete, and the session still ends aborted', async () => {
    const abort = new AbortController();
    const r = await run(script('write', { file_path: 'out.txt', content: 'whole\n' }), { tools: [abortedWhileRunning(writeTool, abort)], signal: abort.signal });
    expect(r.of('tool_success').map((e) => e.tool)).toEqual(['write']);
    expect(r.of('tool_failure')).toEqual([]);
    expect(readFileSync(join(r.workspace, 'out.txt'), 'utf8')).toBe('whole\n');
    expect(r.results()[0]!.content).toMatch(/Created "out.txt"/);
    expect(r.result.stop).toBe('aborted');
    expect(r.of('model_request')).toHaveLength(1); // no turn after the abort
  });

  it('lets an edit the user aborts while it runs complete', async () => {
    const abort = new AbortController();
    const r = await run(script('edit', { file_path: 'a.txt', old_string: 'alpha', new_string: 'omega' }), {
      tools: [abortedWhileRunning(editTool, abort)],
      files: { 'a.txt': 'alpha beta\n' },
      signal: abort.signal,
    });
    expect(r.of('tool_success').map((e) => e.tool)).toEqual(['edit']);
    expect(readFileSync(join(r.workspace, 'a.txt'), 'utf8')).toBe('omega beta\n');
    expect(r.result.stop).toBe('aborted');
  });

  it('control: the same write with cancel is stopped and reported aborted', async () => {
    const abort = new AbortController();
    const r = await run(script('write', { file_path: 'out.txt', content: 'whole\n' }), {
      tools: [abortedWhileRunning(writeTool, abort, { interruptBehavior: 'cancel' })],
      signal: abort.signal,
    });
    expect(r.of('tool_failure').map((e) => [e.tool, e.failure_kind, e.error_code])).toEqual([['write', 'aborted', 'user_abort']]);
    expect(r.of('tool_success')).toEqual([]);
    expect(existsSync(join(r.workspace, 'out.txt'))).toBe(false);
    expect(r.result.stop).toBe('aborted');
  });
});
