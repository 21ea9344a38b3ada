/**
 * What the OS sandbox costs per bash command: the same command run N times
 * as plain `bash -c` and inside bubblewrap (the product layout), in one run,
 * interleaved so machine noise hits both alike. Also the permission chain's
 * cost for a bash call (parse + judge, cached and uncached), which is not
 * part of bench/harness-overhead.ts (its tool is not bash).
 *
 *   node --import tsx bench/sandbox-cost.ts [commands]
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkPermission, commandSubject } from '../src/harness/permissions/index.js';
import { bubblewrap, bubblewrapProblem, noSandbox } from '../src/harness/sandbox/sandbox.js';
import { runCommand } from '../src/harness/tools/run-command.js';

const n = Number(process.argv[2] ?? 200);
const dir = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-bench-sandbox-')));
const signal = new AbortController().signal;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function once(sandbox: ReturnType<typeof noSandbox>): Promise<number> {
  const t = performance.now();
  const r = await runCommand('true', { cwd: dir, timeoutMs: 10_000, signal, sandbox });
  if (r.exitCode !== 0) throw new Error(`bench command failed: ${r.output}`);
  return performance.now() - t;
}

try {
  console.log(`load average ${loadavg().map((l) => l.toFixed(2)).join(' ')} on ${process.env.CI ? 'CI' : 'this machine'}`);
  const problem = bubblewrapProblem();
  const plain = noSandbox();
  const bwrap = problem === null ? bubblewrap({ workspace: dir }) : null;
  for (let i = 0; i < 10; i++) {
    await once(plain);
    if (bwrap) await once(bwrap);
  }
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < n; i++) {
    a.push(await once(plain));
    if (bwrap) b.push(await once(bwrap));
  }
  console.log(`bash -c true, ${n} runs: plain median ${median(a).toFixed(2)} ms`);
  if (bwrap) {
    const cost = median(b) - median(a);
    console.log(`  in bubblewrap: median ${median(b).toFixed(2)} ms; the sandbox adds ${cost.toFixed(2)} ms per command (${(median(b) / median(a)).toFixed(2)}x)`);
  } else console.log(`  bubblewrap not measured: ${problem}`);

  // The chain on bash commands: a new command each time (parse + judge) and a repeated one (analysis cache hit).
  const config = { mode: 'acceptEdits' as const, headless: true, workspaceRoot: dir, homeDir: dir };
  const commands = ['git log --oneline -5 -- src', 'grep -rn --include=*.ts TODO src', "find . -name '*.ts' -exec wc -l {} +", 'cat a.txt | sort | uniq -c'];
  const calls = 20_000;
  let t = performance.now();
  for (let i = 0; i < calls; i++) {
    const c = `${commands[i % commands.length]} # ${i}`;
    checkPermission(commandSubject('bash', { command: c }, c), config);
  }
  const fresh = ((performance.now() - t) / calls) * 1000;
  t = performance.now();
  for (let i = 0; i < calls; i++) {
    const c = commands[i % commands.length] as string;
    checkPermission(commandSubject('bash', { command: c }, c), config);
  }
  const cached = ((performance.now() - t) / calls) * 1000;
  console.log(`permission chain on a bash call: ${fresh.toFixed(1)} µs new command (parse + judge), ${cached.toFixed(1)} µs repeated (analysis cached)`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
