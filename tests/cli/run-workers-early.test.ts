/**
 * `faultline run` starts its worker threads while the suite is still being
 * read (with --workers, or once the files read so far hold enough sessions),
 * so a run refused after that point has live threads and their workspace
 * parents: the refusal must read exactly as on one thread, exit at once (no
 * thread may hold the process open) and leave no worker directory behind.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

function runCli(args: string[], dir: string): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/bin.ts', 'run', ...args], {
    cwd: process.cwd(),
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, TMPDIR: dir, NO_COLOR: '1' },
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => void (stderr += d.toString()));
  // A process held open by its threads would never exit: kill it well before the test's own timeout.
  const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    }),
  );
}

/** `count` plain tasks; the one at `bad` has a number for its prompt (a schema error the fast parse cannot see). */
function suite(count: number, bad: number): string {
  const tasks = Array.from({ length: count }, (_, i) => `  - id: t-${i}\n    prompt: ${i === bad ? 1 : 'go'}\n    script:\n      - text: done\n`);
  return `suite: early\ntasks:\n${tasks.join('')}`;
}

const left = (dir: string) => readdirSync(dir).filter((f) => !/\.(jsonl|yaml)$/.test(f) && !f.startsWith('tsx-'));

describe('faultline run: worker threads started before the suite is checked', () => {
  it('a suite refused after --workers 2 started its threads: the same message and exit 2 as on one thread, no worker directory left', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'bad.yaml'), suite(3, 1));
    const one = await runCli([join(dir, 'bad.yaml'), '--workers', '1', '--out', join(dir, 'one.jsonl')], dir);
    const two = await runCli([join(dir, 'bad.yaml'), '--workers', '2', '--out', join(dir, 'two.jsonl')], dir);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/^faultline: invalid suite: .*bad\.yaml:\d+:\d+: tasks\.1\.prompt: /);
    expect(two).toEqual(one);
    expect(left(dir)).toEqual([]);
  }, 240_000);

  it('a suite big enough for the default threads (started as its tasks are read) and refused afterwards exits 2 with its message', async () => {
    const dir = tempDir();
    // 250 tasks: at or above the default's threshold, so the threads start before the schema finds task 240.
    writeFileSync(join(dir, 'big.yaml'), suite(250, 240));
    const result = await runCli([join(dir, 'big.yaml'), '-j', '8', '--out', join(dir, 'big.jsonl')], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^faultline: invalid suite: .*big\.yaml:\d+:\d+: tasks\.240\.prompt: /);
    expect(left(dir)).toEqual([]);
  }, 240_000);

  it('--workers 4 on a 2-task suite runs both tasks (the threads it does not need are stopped) and leaves no worker directory', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'two.yaml'), suite(2, -1));
    const trace = join(dir, 'two.jsonl');
    const result = await runCli([join(dir, 'two.yaml'), '--workers', '4', '-j', '4', '--out', trace], dir);
    expect(result.code, result.stderr).toBe(0);
    const events = readFileSync(trace, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { event: string; outcome?: string });
    expect(events.filter((e) => e.event === 'session_end').map((e) => e.outcome)).toEqual(['passed', 'passed']);
    expect(events.at(-1)).toMatchObject({ event: 'run_end', sessions: 2, passed: 2 });
    expect(left(dir)).toEqual([]);
  }, 240_000);
});
