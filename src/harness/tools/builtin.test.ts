import { readdir } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinTools } from './builtin.js';
import { context, makeWorkspace, removeWorkspaces } from './test-helpers.js';

afterEach(removeWorkspaces);

/** One valid input per built-in, each of which would change or read the workspace if it ran. */
const inputs: Record<string, unknown> = {
  read: { file_path: 'a.txt' },
  write: { file_path: 'created.txt', content: 'x' },
  edit: { file_path: 'a.txt', old_string: 'a', new_string: 'b' },
  ls: {},
  glob: { pattern: '**/*' },
  grep: { pattern: 'a' },
  bash: { command: 'touch ran.txt' },
};

describe('built-in tools', () => {
  it('each declare the text sent for an empty result', () => {
    for (const tool of builtinTools()) expect(tool.emptyText, tool.name).toMatch(/^\(.+\)$/);
  });

  it('each have an input fixture here, so none is left out of the abort check', () => {
    expect(Object.keys(inputs)).toEqual(builtinTools().map((tool) => tool.name));
  });

  it('each return an aborted tool error without touching the workspace when the signal has already fired', async () => {
    const ws = await makeWorkspace({ 'a.txt': 'a' });
    const controller = new AbortController();
    controller.abort();
    for (const tool of builtinTools()) {
      const out = await tool.execute(tool.inputSchema.parse(inputs[tool.name]), context(ws, controller.signal));
      expect(out, tool.name).toMatchObject({ isError: true, errorCode: 'aborted' });
    }
    expect(await readdir(ws)).toEqual(['a.txt']);
  });
});
