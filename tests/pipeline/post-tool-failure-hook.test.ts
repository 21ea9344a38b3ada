/**
 * PostToolUseFailure (Claude Code's hook event of that name) through the real
 * SDK + msw: called once for a tool that ran and failed, never for a success
 * or a call refused before it ran; its additionalContext reaches the model;
 * a hook that throws leaves the error text as it was (fails open).
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { PostToolUseFailureEvent } from '../../src/harness/hooks/types.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline } from './run-pipeline.js';

afterAll(() => stopMockHub());

describe('the PostToolUseFailure hook', () => {
  it('runs once per call that ran and failed, adds its context to the error, and logs the run', async () => {
    const seen: PostToolUseFailureEvent[] = [];
    const run = await runPipeline(
      [
        { tool_use: [{ name: 'read', input: { file_path: 'missing.txt' } }, { name: 'read', input: { file_path: 'a.txt' } }, { name: 'nope', input: {} }] },
        { text: 'done' },
      ],
      { files: { 'a.txt': 'alpha\n' }, hooks: { postToolUseFailure: (e) => (seen.push(e), { additionalContext: 'Hook: list the directory first.' }) } },
    );
    expect(seen.map((e) => [e.tool, e.failureKind])).toEqual([['read', 'tool_error']]);
    expect(seen[0]!.input).toEqual({ file_path: 'missing.txt' });
    expect(run.results()[0]!.content).toMatch(/\nHook: list the directory first\.$/);
    expect(run.results()[1]!.content).not.toMatch(/Hook:/);
    const hooks = run.of('hook');
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ hook: 'post_tool_use_failure', effect: 'output_modified', tool: 'read' });
  });

  it('leaves the error as it was when the hook throws', async () => {
    const run = await runPipeline([{ tool_use: [{ name: 'read', input: { file_path: 'missing.txt' } }] }, { text: 'done' }], {
      hooks: {
        postToolUseFailure: () => {
          throw new Error('audit service down');
        },
      },
    });
    expect(run.of('hook')[0]).toMatchObject({ hook: 'post_tool_use_failure', effect: 'failed' });
    expect(run.of('tool_failure')[0]).toMatchObject({ failure_kind: 'tool_error' });
    expect(run.results()[0]!.content).not.toMatch(/audit service/);
  });
});
