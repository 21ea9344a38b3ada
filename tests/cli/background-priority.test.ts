/**
 * The CLI's process runs V8's background threads at the lowest priority and its main thread at the default
 * (src/cli/background-priority.ts): read from /proc, in a child node, and from outside a running `faultline run`.
 * Linux only, as the change itself.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dirs.js';

const root = resolve(import.meta.dirname, '../..');

/** Each thread's nice value, read from /proc/<pid>/task/<tid>/stat (field 19), by tid; {} once the process is gone. */
function niceByThread(pid: number): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      out[tid] = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    }
  } catch {
    // the process or a thread ended while it was read
  }
  return out;
}

/** A child node that reports its threads' nice values after `script` (ESM, src through tsx). */
function threadsAfter(script: string): { pid: number; nice: Record<string, number> } {
  const ran = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', `${script}\nconst { readdirSync, readFileSync } = await import('node:fs');\nconst nice = {};\nfor (const t of readdirSync('/proc/self/task')) { const s = readFileSync('/proc/self/task/' + t + '/stat', 'utf8'); nice[t] = Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[16]); }\nconsole.log(JSON.stringify({ pid: process.pid, nice }));`],
    { cwd: root, encoding: 'utf8', timeout: 60_000 },
  );
  expect(ran.status, ran.stderr).toBe(0);
  return JSON.parse(ran.stdout) as { pid: number; nice: Record<string, number> };
}

describe.runIf(process.platform === 'linux')('background thread priority', () => {
  it('lowers every thread but the main one to nice 19', () => {
    const { pid, nice } = threadsAfter(`const { lowerBackgroundThreads } = await import(${JSON.stringify(join(root, 'src/cli/background-priority.ts'))});\nif (lowerBackgroundThreads() < 4) throw new Error('fewer than the 4 platform workers lowered');`);
    expect(nice[String(pid)]).toBe(0);
    const others = Object.entries(nice).filter(([tid]) => tid !== String(pid));
    expect(others.length).toBeGreaterThanOrEqual(4);
    expect(others.every(([, value]) => value === 19), JSON.stringify(nice)).toBe(true);
  });

  it('without it, every thread runs at the default priority (what the first case changes)', () => {
    const { nice } = threadsAfter('');
    expect(Object.values(nice).every((value) => value === 0), JSON.stringify(nice)).toBe(true);
  });

  it('the built CLI does it: a running `faultline run` has its main thread at 0 and the others at 19', async () => {
    const child = spawn(process.execPath, [join(root, 'dist/cli/bin.js'), 'run', join(root, 'suites/demo'), '--out', join(tempDir('faultline-nice-'), 'trace.jsonl')], { cwd: root, stdio: 'ignore' });
    const exited = new Promise<number | null>((done) => child.on('exit', done));
    let seen: Record<string, number> = {};
    // Sampled while it runs (about a second for the demo suite): the first read with the workers lowered.
    for (let i = 0; i < 200; i++) {
      const nice = niceByThread(child.pid!);
      if (Object.values(nice).filter((value) => value === 19).length >= 4) {
        seen = nice;
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(await exited).toBe(0);
    expect(seen[String(child.pid)], JSON.stringify(seen)).toBe(0);
    expect(Object.values(seen).filter((value) => value === 19).length).toBeGreaterThanOrEqual(4);
  });
});
