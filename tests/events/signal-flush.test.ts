import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

describe('JsonlSink on a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('flushes buffered lines on %s and still lets the process die of it', async (signal) => {
    const file = join(tempDir('faultline-sig-'), 't.jsonl');
    // Events stay buffered (long flush interval), then the process waits to be killed.
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        `import { JsonlSink, RunEmitter } from './src/events/index.ts';
         const sink = new JsonlSink(${JSON.stringify(file)}, { flushIntervalMs: 60000 });
         const s = new RunEmitter(sink, 'r').session('s', 't');
         for (let i = 0; i < 3; i++) s.emit('defense_stats', { defense: 'denial_fuse', evaluated: i, triggered: 0 });
         console.log('ready');
         setInterval(() => {}, 1000);`,
      ],
      { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, sig) => resolve(sig)));
    child.kill(signal);
    expect(await exited).toBe(signal);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { seq: number }).seq)).toEqual([1, 2, 3]);
  });
});
