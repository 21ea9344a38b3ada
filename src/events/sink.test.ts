import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunEmitter, toolLabel } from './emitter.js';
import { parseLine } from './parse-line.js';
import { JsonlSink } from './sink.js';

const made: string[] = [];
const dir = () => {
  const path = mkdtempSync(join(tmpdir(), 'faultline-sink-'));
  made.push(path);
  return path;
};
afterAll(() => made.forEach((path) => rmSync(path, { recursive: true, force: true })));

describe('JsonlSink', () => {
  it('writes one valid line per event with a per-writer seq', () => {
    const path = join(dir(), 't.jsonl');
    const sink = new JsonlSink(path, { validate: true });
    const run = new RunEmitter(sink, 'run-1');
    const session = run.session('s1', 'task-a');
    session.emit('defense_stats', { defense: 'denial_fuse', evaluated: 3, triggered: 1 });
    session.expectation('answer.0', true, 'ok');
    sink.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.at(-1)).toBe('');
    const events = lines.slice(0, -1).map((l) => parseLine(l));
    expect(events.every((e) => e.ok)).toBe(true);
    expect(events.map((e) => (e.ok ? e.event.seq : -1))).toEqual([1, 2]);
  });

  it('never throws when the disk fails, and reports the error once', () => {
    const errors: unknown[] = [];
    // A regular file where a directory should be: every open and write fails (ENOTDIR).
    const blocker = join(dir(), 'blocker');
    writeFileSync(blocker, '');
    const sink = new JsonlSink(join(blocker, 'sub', 't.jsonl'), { onError: (e) => errors.push(e) });
    const run = new RunEmitter(sink, 'run-1');
    expect(() => {
      for (let i = 0; i < 5; i++) run.session('s', 't').emit('defense_stats', { defense: 'denial_fuse', evaluated: i, triggered: 0 });
      sink.flush();
      sink.close();
    }).not.toThrow();
    expect(errors).toHaveLength(1);
    expect(sink.stats().failedWrites).toBe(5);
  });

  it('drops and counts an invalid event instead of writing it when validating', () => {
    const path = join(dir(), 't.jsonl');
    const sink = new JsonlSink(path, { validate: true });
    sink.emit({ event: 'defense_stats', run_id: 'r', session_id: 's', task_id: 't', defense: 'No such defense!', evaluated: 1, triggered: 0 } as never);
    sink.close();
    expect(sink.stats().invalid).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe('');
  });

  it('flushes buffered lines when the buffer fills', () => {
    const path = join(dir(), 't.jsonl');
    const sink = new JsonlSink(path, { bufferBytes: 1 });
    new RunEmitter(sink, 'r').session('s', 't').emit('defense_stats', { defense: 'denial_fuse', evaluated: 1, triggered: 0 });
    expect(readFileSync(path, 'utf8').split('\n')).toHaveLength(2);
    sink.close();
  });
});

describe('toolLabel', () => {
  it('keeps known names and turns others into <unknown> with a capped requested name', () => {
    const known = (n: string) => n === 'read';
    expect(toolLabel('read', known)).toEqual({ tool: 'read', requested_tool: null });
    const long = 'x'.repeat(100);
    expect(toolLabel(long, known)).toEqual({ tool: '<unknown>', requested_tool: 'x'.repeat(64) });
  });
});
