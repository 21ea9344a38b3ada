import { describe, expect, it, vi } from 'vitest';
import { ToolRegistry } from '../../src/harness/tools/registry.js';
import { readTool } from '../../src/harness/tools/read.js';
import type { Tool } from '../../src/harness/tools/tool.js';
import { runPipeline } from './run-pipeline.js';

/** A read tool whose schema counts its parses (a copy: the shared read tool is left alone). */
function countingRead() {
  const inputSchema = readTool.inputSchema.clone();
  const parse = vi.spyOn(inputSchema, 'safeParse');
  const tool: Tool = { ...readTool, inputSchema } as Tool;
  return { registry: new ToolRegistry([tool]), parse };
}

const files = { 'a.txt': 'alpha\n', 'b.txt': 'beta\n' };
const script = [{ tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }] }, { text: 'done' }];

describe('a call input read and parsed once, from admission to execution', () => {
  it('parses the model input once for the scheduler, the permission chain and validation', async () => {
    const { registry, parse } = countingRead();
    const run = await runPipeline(script, { files, registry });
    expect(run.of('tool_success')).toHaveLength(1);
    expect(run.results()[0]!.content).toContain('alpha');
    expect(parse).toHaveBeenCalledTimes(1);
  });

  it('parses a hook rewrite afresh and runs the rewritten input', async () => {
    const { registry, parse } = countingRead();
    const run = await runPipeline(script, { files, registry, hooks: { preToolUse: () => ({ updatedInput: { file_path: 'b.txt' } }) } });
    expect(run.results()[0]!.content).toContain('beta');
    expect(parse.mock.calls.map((c) => c[0])).toEqual([{ file_path: 'a.txt' }, { file_path: 'b.txt' }, { file_path: 'b.txt' }]);
  });

  it('still refuses an input the schema rejects, with the field named', async () => {
    const { registry } = countingRead();
    const run = await runPipeline([{ tool_use: [{ name: 'read', input: { path: 'a.txt' } }] }, { text: 'done' }], { files, registry });
    expect(run.of('tool_failure')[0]).toMatchObject({ failure_kind: 'invalid_input' });
    expect(run.results()[0]!.content).toMatch(/file_path/);
  });
});
