/**
 * Item 2 of issue 14: task workspaces and spawned processes are created
 * lazily and cleaned up. The run gets a temp directory of its own (the
 * runner's `tempDir`, as TMPDIR would be), so other test runs on the machine
 * cannot add to or take from what is counted.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemorySink } from '../../src/events/sink.js';
import { loadSuites } from '../../src/suites/load-suite.js';
import { mockModelSource } from '../../src/suites/mock-source.js';
import { runSuite } from '../../src/suites/run-suite.js';

const root = mkdtempSync(join(tmpdir(), 'faultline-cleanup-'));
const source = mockModelSource();
afterAll(async () => {
  await source.close();
  rmSync(root, { recursive: true, force: true });
});

/**
 * 10,000 sessions (the figure) take minutes on a loaded 2-core
 * machine, so CI counts 400 and FAULTLINE_FULL_SCALE=1 counts 10,000; the
 * throughput bench also counts what its sessions leave in the temp directory and /dev/shm.
 */
const SESSIONS = process.env.FAULTLINE_FULL_SCALE === '1' ? 10_000 : 400;
/** The suite below has five tasks; each runs SESSIONS / KINDS times. */
const KINDS = 5;

// A sleep no other process on the machine runs, so `ps` finds only ours.
const marker = 900_000 + Math.floor(Math.random() * 90_000);

const SUITE = `suite: cleanup
tasks:
  - id: answer-only
    prompt: hi
    files: { never-made.txt: "a workspace nobody needs\\n" }
    script: [{ text: done }]
  - id: read-and-edit
    prompt: fix it
    tools: [read, edit]
    files: { f.txt: "Helo\\n", deep/er/g.txt: "x\\n" }
    script:
      - tool_use: [{ name: read, input: { file_path: f.txt } }]
      - tool_use: [{ name: edit, input: { file_path: f.txt, old_string: Helo, new_string: Hello } }]
      - text: Fixed.
    expect:
      files: { f.txt: { equals: "Hello\\n" } }
  - id: background-job
    prompt: start a server
    tools: [bash]
    permissions: { rules: [{ id: allow-sleep, effect: allow, tool: bash, pattern: "sleep *" }] }
    script:
      - tool_use: [{ name: bash, input: { command: "sleep ${marker} & echo started" } }]
      - text: Started.
    expect:
      events: [count(tool_success where tool = bash) == 1]
  - id: background-job-unsandboxed
    prompt: start a server
    tools: [bash]
    # Without the OS sandbox (whose PID namespace would end the job on its own), so only the
    # harness's kill of the call's process group stands between the job and a leftover process.
    sandbox: off
    permissions: { rules: [{ id: allow-sleep, effect: allow, tool: bash, pattern: "sleep *" }] }
    script:
      - tool_use: [{ name: bash, input: { command: "sleep ${marker} & echo started" } }]
      - text: Started.
    expect:
      events: [count(tool_success where tool = bash) == 1]
  - id: fails-a-check
    prompt: hi
    files: { kept-by-a-check.txt: "x\\n" }
    script: [{ text: "no" }]
    expect:
      answer: { contains: "yes" }
      files: { kept-by-a-check.txt: { exists: true } }
`;

function suiteFile(): string {
  const dir = mkdtempSync(join(root, 'suite-'));
  const file = join(dir, 'cleanup.yaml');
  writeFileSync(file, SUITE);
  return file;
}

function markerProcesses(): string[] {
  const out = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(`sleep ${marker}`) && !line.includes('ps -eo'));
}

describe('task workspaces and processes', () => {
  it(`${SESSIONS} sessions leave nothing in their temp directory and no process behind`, async () => {
    const tasks = loadSuites([suiteFile()]);
    const tempDir = mkdtempSync(join(root, 'tmp-'));
    const summary = await runSuite({ tasks, sink: new MemorySink(), source, concurrency: 32, repeat: SESSIONS / KINDS, tempDir });
    expect(summary.outcomes).toHaveLength(SESSIONS);
    // Every kind ran as scripted: the failing check fails, everything else passes.
    expect(summary.failed).toBe(SESSIONS / KINDS);
    expect(summary.passed).toBe((SESSIONS / KINDS) * (KINDS - 1));
    expect(summary.outcomes.filter((o) => o.outcome === 'failed').every((o) => o.task.id === 'fails-a-check')).toBe(true);
    expect(readdirSync(tempDir)).toEqual([]);
    expect(markerProcesses()).toEqual([]);
  }, 600_000);

  it('leaves nothing where the workspaces are made at set-up (the tmpfs the CLI chose itself)', async () => {
    const tasks = loadSuites([suiteFile()]).filter((t) => t.id === 'answer-only' || t.id === 'read-and-edit' || t.id === 'fails-a-check');
    const tempDir = mkdtempSync(join(root, 'shm-'));
    const summary = await runSuite({ tasks, sink: new MemorySink(), source, concurrency: 32, repeat: 40, tempDir, tempDirFallback: true });
    expect(summary.outcomes).toHaveLength(120);
    expect(summary.passed).toBe(80);
    expect(readdirSync(tempDir)).toEqual([]);
  });

  it('creates a workspace only for a session that needs one', async () => {
    const tasks = loadSuites([suiteFile()]).filter((t) => t.id === 'answer-only' || t.id === 'read-and-edit');
    // A temp directory that does not exist: any session that makes its workspace fails, naming it.
    const missing = join(root, 'no-such-dir');
    const summary = await runSuite({ tasks, sink: new MemorySink(), source, concurrency: 2, tempDir: missing });
    const byId = new Map(summary.outcomes.map((o) => [o.task.id, o]));
    expect(byId.get('answer-only')?.outcome).toBe('passed');
    expect(byId.get('read-and-edit')?.outcome).toBe('error');
    expect(byId.get('read-and-edit')?.error).toContain('no-such-dir');
  });
});
