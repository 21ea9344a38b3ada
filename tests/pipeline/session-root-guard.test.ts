/**
 * The path guard takes the session's own resolution of the workspace root (pipeline/session-root.ts) instead of
 * resolving the root again. The verdicts must be those of a root the guard resolved itself, including for a
 * workspace given through a symlink, where the real root differs from the path the session was given.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MemorySink, RunEmitter } from '../../src/events/index.js';
import { runTurnCalls } from '../../src/harness/pipeline/run-turn-calls.js';
import { createSessionServices } from '../../src/harness/pipeline/session-services.js';
import { createScheduler } from '../../src/harness/schedule/scheduler.js';
import { createRegistry } from '../../src/harness/tools/builtin.js';
import type { ToolUseBlock } from '../../src/providers/types.js';

let base: string;
beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-rootguard-')));
  mkdirSync(join(base, 'real'));
  mkdirSync(join(base, 'outside'));
  writeFileSync(join(base, 'real', 'a.txt'), 'inside\n');
  writeFileSync(join(base, 'outside', 'b.txt'), 'outside\n');
  symlinkSync(join(base, 'real'), join(base, 'link'));
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

async function decisions(workspace: string, paths: string[]): Promise<string[]> {
  const sink = new MemorySink();
  const emitter = new RunEmitter(sink, 'run-rootguard').session('s1', 'task-1');
  const pipeline = createSessionServices({ workspace, mode: 'default', headless: true });
  const blocks: ToolUseBlock[] = paths.map((file_path, i) => ({ type: 'tool_use', id: `toolu_${i}`, name: 'read', input: { file_path } }));
  const results = await runTurnCalls(blocks, 1, {
    registry: createRegistry(),
    emitter,
    workspace,
    signal: new AbortController().signal,
    defaultTimeoutMs: 10_000,
    pipeline,
    scheduler: createScheduler({ maxConcurrency: 1 }),
  });
  return results.map((r, i) => `${paths[i]}: ${r.is_error ? 'refused' : 'read'}`);
}

describe('the path guard on the session real root', () => {
  for (const kind of ['real', 'link'] as const) {
    it(`judges reads inside and outside a workspace given by its ${kind} path`, async () => {
      const ws = join(base, kind);
      const got = await decisions(ws, ['a.txt', join(base, 'real', 'a.txt'), join(base, 'link', 'a.txt'), join(base, 'outside', 'b.txt'), '../outside/b.txt']);
      expect(got).toEqual([
        'a.txt: read',
        `${join(base, 'real', 'a.txt')}: read`,
        // Through a link from outside a workspace given by its real path, the lexical path is outside: the stricter verdict.
        `${join(base, 'link', 'a.txt')}: ${kind === 'link' ? 'read' : 'refused'}`,
        `${join(base, 'outside', 'b.txt')}: refused`,
        '../outside/b.txt: refused',
      ]);
    });
  }
});
