import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuites, SuiteError } from './load-suite.js';

function suiteFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'faultline-suite-'));
  const file = join(dir, 'x.yaml');
  writeFileSync(file, text);
  return file;
}

function problems(file: string): string[] {
  try {
    loadSuites([file]);
  } catch (error) {
    if (error instanceof SuiteError) return error.problems;
    throw error;
  }
  return [];
}

describe('loadSuites', () => {
  it('loads tasks with suite defaults applied', () => {
    const file = suiteFile('suite: s\ndefaults: { max_turns: 3 }\ntasks:\n  - id: a\n    prompt: hi\n    script: [{ text: done }]\n');
    const [task] = loadSuites([file]);
    expect(task).toMatchObject({ id: 'a', suite: 's', max_turns: 3 });
  });

  it('reports a schema problem with file, line and path', () => {
    const file = suiteFile('tasks:\n  - id: a\n    prompt: hi\n    script:\n      - tool_use:\n          - { input: {} }\n');
    expect(problems(file)).toEqual([`${file}:6: tasks.0.script.0.tool_use.0.name: Invalid input: expected string, received undefined`]);
  });

  it('reports a bad event assertion at its line', () => {
    const file = suiteFile('tasks:\n  - id: a\n    prompt: hi\n    script: [{ text: x }]\n    expect:\n      events:\n        - lost = 0\n');
    const [problem] = problems(file);
    expect(problem).toMatch(new RegExp(`^${file}:7: tasks\\.0\\.expect\\.events\\.0: event assertion: expected a comparison`));
  });

  it('reports YAML syntax errors with their line', () => {
    const file = suiteFile('tasks:\n  - id: a\n    prompt: [unclosed\n');
    expect(problems(file)[0]).toMatch(new RegExp(`^${file}:\\d+: YAML: `));
  });

  it('rejects duplicate task ids', () => {
    const file = suiteFile('tasks:\n  - { id: a, prompt: x, script: [{ text: y }] }\n  - { id: a, prompt: x, script: [{ text: y }] }\n');
    expect(problems(file)[0]).toMatch(/duplicate task id "a"/);
  });
});
