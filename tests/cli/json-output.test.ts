/**
 * `--json` on every command that produces a result: one JSON document on
 * stdout, `format_version` first, snake_case keys throughout (the wire
 * payloads `schema` prints keep their providers' own keys).
 */
import { writeFileSync } from 'node:fs';
import { startTaskServer } from '../../src/cli/commands/mock-server.js';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cli } from './cli-io.js';
import { tempDir } from '../helpers/temp-dirs.js';

const SUITE = `suite: json-demo
tasks:
  - id: reads-a-file
    prompt: Read a.txt.
    files: { a.txt: "hello\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: a.txt } }]
      - text: It says hello.
    expect:
      answer: { contains: hello }
`;

/** Every key that is not snake_case, with its path; `skip` names subtrees that carry someone else's format. */
function badKeys(value: unknown, path = '$', skip: readonly string[] = []): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => badKeys(v, `${path}[${i}]`, skip));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [...(/^[a-z][a-z0-9_]*$/.test(k) ? [] : [`${path}.${k}`]), ...(skip.includes(k) ? [] : badKeys(v, `${path}.${k}`, skip))]);
}

function parse(stdout: string, version = 1): Record<string, unknown> {
  const doc = JSON.parse(stdout) as Record<string, unknown>;
  expect(Object.keys(doc)[0]).toBe('format_version');
  // The report's is 2: the tool funnel's mixed success_rate_of_executed became one rate per meaning.
  expect(doc.format_version).toBe(version);
  return doc;
}

describe('--json on every command', () => {
  let dir: string;
  let suite: string;
  let trace: string;
  beforeAll(async () => {
    dir = tempDir('faultline-json-');
    suite = join(dir, 'suite.yaml');
    trace = join(dir, 'trace.jsonl');
    writeFileSync(suite, SUITE);
  });

  it('run --json: the run as data on stdout, the human lines on stderr', async () => {
    const { code, stdout, stderr } = await cli(['run', suite, '--out', trace, '--json']);
    expect(code, stderr).toBe(0);
    const doc = parse(stdout);
    expect(badKeys(doc)).toEqual([]);
    expect(doc).toMatchObject({ passed: 1, failed: 0, trace, tasks: [{ task_id: 'reads-a-file', outcome: 'passed' }] });
    expect(stderr).toContain('1 passed');
  });

  it.each([
    ['report', () => ['report', trace, '--json']],
    ['diff', () => ['diff', trace, trace, '--json']],
    ['query', () => ['query', 'select event, count(*) as n from events group by 1', trace, '--json']],
    ['validate', () => ['validate', trace, '--json']],
    ['compact', () => ['compact', trace, '--to', join(dir, 'c.parquet'), '--json']],
    ['import', () => ['import', 'claude-code', 'tests/importers/fixtures', '--out', join(dir, 'imported.jsonl'), '--json']],
    ['lint-tools', () => ['lint-tools', '--deferred', 'sleep', '--json']],
    ['schema', () => ['schema', suite, '--json']],
    ['export', () => ['export', 'otel', trace, '--out', join(dir, 'spans.otlp.jsonl'), '--json']],
    ['lab', () => ['lab', '--suite', 'suites/lab/protocol.yaml', '--task', 'lab-parallel-reads', '--timeout', '5', '--out', join(dir, 'lab.jsonl'), '--json', '--', 'true']],
    ['verify-defense', () => ['verify-defense', 'identical_call_loop', '--suite', 'suites/faults/loop-identical-call-loop.yaml', '--json']],
  ])('%s --json: format_version first, snake_case keys', async (name, args) => {
    const { stdout, stderr } = await cli(args());
    expect(stdout, stderr).not.toBe('');
    const doc = parse(stdout, name === 'report' ? 2 : 1);
    expect(badKeys(doc, '$', name === 'schema' ? ['tools'] : [])).toEqual([]);
  }, 120_000);

  it('mock-server --json: one JSON line with the origin, port and base URLs', async () => {
    let out = '';
    const io = { stdout: (t: string) => void (out += t), stderr: () => {}, env: {}, cwd: process.cwd(), isTTY: false };
    const server = await startTaskServer({ suite, task: 'reads-a-file', port: '0', json: true }, io);
    try {
      const doc = parse(out);
      expect(badKeys(doc)).toEqual([]);
      expect(doc).toMatchObject({ task_id: 'reads-a-file', origin: server.origin, base_urls: { anthropic: server.origin, openai: `${server.origin}/v1` } });
    } finally {
      await server.close();
    }
  });
});
