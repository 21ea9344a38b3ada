import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { knownToolNames } from '../harness/tools/builtin.js';
import { findSuiteFiles, loadSuiteFile, loadSuites, SuiteError } from './load-suite.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-suite-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

/** A suite file from its lines (so a test reads like the file, line 1 first). */
function suiteFile(...lines: string[]): string {
  const file = join(dir, `s${++files}.yaml`);
  writeFileSync(file, lines.join('\n') + '\n');
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

function warnings(file: string): string[] {
  const seen: string[] = [];
  loadSuites([file], { onWarning: (w) => seen.push(w) });
  return seen;
}

describe('loadSuites', () => {
  it('loads tasks with suite defaults applied', () => {
    const file = suiteFile('suite: s', 'defaults: { max_turns: 3 }', 'tasks:', '  - id: a', '    prompt: hi', '    script: [{ text: done }]');
    const [task] = loadSuites([file]);
    expect(task).toMatchObject({ id: 'a', suite: 's', max_turns: 3 });
  });

  it('reports a schema problem with file, line, column and path', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    script:', '      - tool_use:', '          - { input: {} }');
    expect(problems(file)).toEqual([`${file}:6:13: tasks.0.script.0.tool_use.0.name: missing key "name"`]);
  });

  it('reports a value of the wrong type at the value', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    max_turns: "x"', '    script: [{ text: x }]');
    expect(problems(file)).toEqual([`${file}:4:16: tasks.0.max_turns: Invalid input: expected number, received string`]);
  });

  it('rejects duplicate task ids', () => {
    const file = suiteFile('tasks:', '  - { id: a, prompt: x, script: [{ text: y }] }', '  - { id: a, prompt: x, script: [{ text: y }] }');
    expect(problems(file)[0]).toMatch(/duplicate task id "a"/);
  });
});

describe('YAML syntax errors name the exact line and column', () => {
  it('a tab used as indentation', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    script:', '\t- text: x');
    expect(problems(file)).toEqual([`${file}:5:1: YAML: Tabs are not allowed as indentation`]);
  });

  it('an unclosed quote, at the quote that opens it and not at the end of the file', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: "unclosed', '    script: [{ text: x }]', '  - id: b', '    prompt: y');
    expect(problems(file)).toEqual([`${file}:3:13: YAML: Missing closing "quote (noticed at line 7, column 1)`]);
  });

  it('an unclosed flow sequence, at its bracket', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: [unclosed', '    script: [{ text: x }]');
    expect(problems(file)).toEqual([`${file}:3:13: YAML: Flow sequence in block collection must be sufficiently indented and end with a ] (noticed at line 4, column 5)`]);
  });

  it('a key indented out of line, at the key', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '   script: [{ text: x }]');
    expect(problems(file)[0]).toMatch(new RegExp(`^${file}:4:1: YAML: `));
  });

  it('a duplicate key, at the second one', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    script: [{ text: x }]', '    prompt: again');
    expect(problems(file)).toEqual([`${file}:5:5: YAML: Map keys must be unique`]);
  });
});

describe('unknown keys are reported at the key, with a did-you-mean', () => {
  it('in a task, in defaults, in a script turn, in expect and inside a union', () => {
    const file = suiteFile(
      'defaults:',
      '  max_turn: 3',
      'tasks:',
      '  - id: a',
      '    prompt: hi',
      '    promt: typo',
      '    script:',
      '      - txt: x',
      '    expect:',
      '      event: []',
      '      answer: { contain: x }',
    );
    expect(problems(file)).toEqual([
      `${file}:2:3: defaults.max_turn: unknown key "max_turn" (did you mean max_turns?)`,
      `${file}:6:5: tasks.0.promt: unknown key "promt" (did you mean prompt?)`,
      `${file}:8:9: tasks.0.script.0.txt: unknown key "txt" (did you mean text?)`,
      `${file}:10:7: tasks.0.expect.event: unknown key "event" (did you mean events?)`,
      `${file}:11:17: tasks.0.expect.answer.contain: unknown key "contain" (did you mean contains?)`,
    ]);
  });

  it('a wrong value inside a union is reported in the shape its keys point to, a key of another shape as a clash', () => {
    const file = suiteFile(
      'tasks:',
      '  - id: a',
      '    prompt: hi',
      '    script:',
      '      - rule: [{ then: { text: 1 } }]',
      '      - { text: ok, rule: [{ then: { text: hi } }] }',
      '    expect:',
      '      files:',
      '        a.txt: { equals: 5 }',
      '        b.txt: { regex: x, exists: true }',
      '        c.txt: { exists: yes }',
    );
    // zod alone blames a key the shape it picked lacks (`unknown key "rule" (did you mean rule?)`, `missing key "contains"`).
    expect(problems(file)).toEqual([
      `${file}:5:32: tasks.0.script.0.rule.0.then.text: Invalid input: expected string, received number`,
      `${file}:6:11: tasks.0.script.1.text: "text" cannot be used with "rule"`,
      `${file}:9:26: tasks.0.expect.files.a.txt.equals: Invalid input: expected string, received number`,
      `${file}:10:28: tasks.0.expect.files.b.txt.exists: "exists" cannot be used with "regex"`,
      `${file}:11:26: tasks.0.expect.files.c.txt.exists: Invalid input: expected boolean, received string`,
    ]);
  });
});

describe('event assertions are checked against the event contract at load time', () => {
  const task = (...events: string[]) => suiteFile('tasks:', '  - id: a', '    prompt: hi', '    script: [{ text: x }]', '    expect:', '      events:', ...events.map((e) => `        - ${e}`));

  it('an unknown event, a field the event lacks and a closed label value it cannot take, each at its word', () => {
    const file = task('count(tool_cal) == 0', 'count(tool_call where tol = read) == 0', '"count(tool_failure where failure_kind = not_fund) == 1"', 'distinct(model_request.prefix_hsh) == 1');
    const [event, field, value, distinct] = problems(file);
    expect(event).toMatch(new RegExp(`^${file}:7:17: tasks\\.0\\.expect\\.events\\.0: event assertion: unknown event "tool_cal" \\(did you mean tool_call\\?\\)`));
    expect(field).toMatch(new RegExp(`^${file}:8:33: tasks\\.0\\.expect\\.events\\.1: event assertion: tool_call has no field "tol" \\(did you mean tool\\?\\)`));
    expect(value).toMatch(new RegExp(`^${file}:9:52: tasks\\.0\\.expect\\.events\\.2: event assertion: tool_failure\\.failure_kind cannot be "not_fund" \\(did you mean not_found\\?\\); one of: not_found, `));
    expect(distinct).toMatch(new RegExp(`^${file}:10:34: tasks\\.0\\.expect\\.events\\.3: event assertion: model_request has no field "prefix_hsh" \\(did you mean prefix_hash\\?\\)`));
  });

  it('a syntax error at the word where it was found', () => {
    const file = task('count(tool_call where) == 1', 'lost = 0');
    expect(problems(file)).toEqual([
      `${file}:7:32: tasks.0.expect.events.0: event assertion: expected a field name, found ")"`,
      `${file}:8:16: tasks.0.expect.events.1: event assertion: expected a comparison (== != >= <= > <), found "="`,
    ]);
  });

  it('the same wrong assertion in many tasks (checked once per text) is reported at each, every time the suite loads', () => {
    const tasks = (n: number) => Array.from({ length: n }, (_, i) => [`  - id: t${i}`, '    prompt: hi', '    script: [{ text: x }]', '    expect: { events: [count(tool_cal) == 0, lost == 0] }']).flat();
    const file = suiteFile('tasks:', ...tasks(70));
    const expected = Array.from({ length: 70 }, (_, i) => `${file}:${5 + 4 * i}:30: tasks.${i}.expect.events.0: event assertion: unknown event "tool_cal" (did you mean tool_call?)`);
    expect(problems(file).map((p) => p.replace(/; events: .*/, ''))).toEqual(expected);
    expect(problems(file).map((p) => p.replace(/; events: .*/, ''))).toEqual(expected);
  });

  it('accepts what the contract allows: envelope fields, null on a nullable field, "<unknown>" tools, numbers on numeric fields', () => {
    const file = task(
      'count(tool_failure where failure_kind = not_found and tool = "<unknown>") == 1',
      'count(model_response where stop_reason = null and stop_class = "null" and turn = 1) == 0',
      'count(session_end where outcome = passed and task_id = a) == 0',
      'distinct(model_request.prefix_hash) == 1',
      'lost == 0',
    );
    expect(problems(file)).toEqual([]);
  });
});

describe('a pinned transport is checked when the suite loads', () => {
  it('transport without transport_reason is an error at the transport, and a reason without a transport at the reason', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    transport: http', '    script: [{ text: x }]', '  - id: b', '    prompt: hi', '    transport_reason: because', '    script: [{ text: x }]');
    expect(problems(file)).toEqual([
      `${file}:4:16: tasks.0.transport: transport: http needs transport_reason: why this task cannot run on the other transport`,
      `${file}:8:23: tasks.1.transport_reason: transport_reason without transport: say which transport the task pins (memory or http)`,
    ]);
  });

  it('a transport pinned in defaults with its reason holds for every task; an unknown transport is a schema error', () => {
    const ok = suiteFile('defaults:', '  transport: http', '  transport_reason: sockets', 'tasks:', '  - id: a', '    prompt: hi', '    script: [{ text: x }]');
    expect(loadSuites([ok])[0]).toMatchObject({ transport: 'http', transport_reason: 'sockets' });
    const bad = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    transport: tcp', '    transport_reason: x', '    script: [{ text: x }]');
    expect(problems(bad).join('\n')).toMatch(new RegExp(`^${bad}:4:16: tasks\\.0\\.transport: `));
  });
});

describe('tools are checked when the suite loads', () => {
  it('an unknown name in tools (task or defaults) is an error at its line', () => {
    const file = suiteFile('defaults:', '  tools: [read, grpe]', 'tasks:', '  - id: a', '    prompt: hi', '    tools: [reed, glob]', '    script: [{ text: x }]');
    const [inDefaults, inTask] = problems(file);
    expect(inDefaults).toMatch(new RegExp(`^${file}:2:17: defaults\\.tools\\.1: unknown tool "grpe" \\(did you mean grep\\?\\); tools: ${knownToolNames().join(', ')}$`));
    expect(inTask).toMatch(new RegExp(`^${file}:6:13: tasks\\.0\\.tools\\.0: unknown tool "reed" \\(did you mean read\\?\\)`));
  });

  it('a deferred tool the task does not have is an error at its line', () => {
    const file = suiteFile('tasks:', '  - id: a', '    prompt: hi', '    tools: [read]', '    deferred_tools: [grep]', '    script: [{ text: x }]');
    expect(problems(file)).toEqual([`${file}:5:22: tasks.0.deferred_tools.0: deferred tool "grep" is not in this task's tools (read)`]);
  });

  it('a scripted call of a tool the task does not offer is a warning at the name, fixed turns and rule branches alike', () => {
    const file = suiteFile(
      'tasks:',
      '  - id: a',
      '    prompt: hi',
      '    tools: [read, glob]',
      '    script:',
      '      - tool_use: [{ name: bash, input: { command: ls } }]',
      '      - rule:',
      '          - then: { tool_use: [{ name: gloob, input: {} }] }',
      '      - tool_use: [{ name: read, input: { path: a } }]',
      '      - text: done',
    );
    expect(warnings(file)).toEqual([
      `${file}:6:28: tasks.0.script.0.tool_use.0.name: the script calls "bash", a tool this task does not offer (tools: read, glob); if the task is about a hallucinated tool, set expect_unknown_tools: true`,
      `${file}:8:40: tasks.0.script.1.rule.0.then.tool_use.0.name: the script calls "gloob", a tool this task does not offer (did you mean glob?) (tools: read, glob); if the task is about a hallucinated tool, set expect_unknown_tools: true`,
    ]);
  });

  it('no warning when the task declares expect_unknown_tools, and one when it declares it for nothing', () => {
    const file = suiteFile(
      'tasks:',
      '  - id: hallucinates',
      '    prompt: hi',
      '    expect_unknown_tools: true',
      '    script: [{ tool_use: [{ name: find_file, input: {} }] }, { text: done }]',
      '  - id: does-not',
      '    prompt: hi',
      '    expect_unknown_tools: true',
      '    script: [{ tool_use: [{ name: read, input: { path: a } }] }, { text: done }]',
    );
    expect(warnings(file)).toEqual([`${file}:8:27: tasks.1.expect_unknown_tools: expect_unknown_tools is set, but the script calls no tool outside the task's tools`]);
  });

  it('tool_search and the tools of a configured MCP server count as offered', () => {
    const file = suiteFile(
      'tasks:',
      '  - id: a',
      '    prompt: hi',
      '    deferred_tools: [grep]',
      '    mcp_servers: { srv: { command: node, args: [x.mjs] } }',
      '    script:',
      '      - tool_use: [{ name: tool_search, input: { query: grep } }, { name: grep, input: { pattern: x } }, { name: mcp__srv__any, input: {} }]',
      '      - text: done',
    );
    expect(warnings(file)).toEqual([]);
  });
});

describe('shipped suites', () => {
  it('load with no error and no warning, and both parsers read them the same', () => {
    const seen: string[] = [];
    for (const file of findSuiteFiles(['suites', 'tests/live/real-api.yaml'])) {
      const fast = loadSuiteFile(file);
      expect(fast.warnings).toEqual([]);
      loadSuites([file], { onWarning: (w) => seen.push(w) });
    }
    expect(seen).toEqual([]);
  });
});

describe('small and large suites are checked by different zod paths with one result', () => {
  it('the first tasks of a 70-task suite load the same as the same tasks alone', () => {
    const task = (i: number) => [
      `  - id: t-${i}`,
      `    prompt: Fix notes.txt`,
      `    files: { notes.txt: "Helo ${i}\\n" }`,
      `    script:`,
      `      - tool_use: [{ name: read, input: { file_path: notes.txt } }]`,
      `      - rule: [{ when: { any_error: true }, then: { text: failed } }, { then: { text: done, usage: { input_tokens: ${i} } } }]`,
      `    expect: { answer: [{ contains: done }], files: { notes.txt: { exists: true } }, events: [count(tool_success) == 1] }`,
    ];
    const header = ['suite: paths', 'defaults: { max_turns: 3, tools: [read, edit] }', 'tasks:'];
    const large = loadSuites([suiteFile(...header, ...Array.from({ length: 70 }, (_, i) => task(i)).flat())]);
    const small = loadSuites([suiteFile(...header, ...Array.from({ length: 3 }, (_, i) => task(i)).flat())]);
    expect(large).toHaveLength(70);
    expect(small.map(({ file: _, ...t }) => t)).toEqual(large.slice(0, 3).map(({ file: _, ...t }) => t));
    expect(JSON.stringify(small.map(({ file: _, ...t }) => t))).toBe(JSON.stringify(large.slice(0, 3).map(({ file: _, ...t }) => t)));
  });
});
