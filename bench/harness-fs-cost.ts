/**
 * What the harness's own file work costs per task, old against new in one
 * run: the file steps of the throughput bench's 3-turn task (read tool; for
 * the edit, the snapshot stage, the git-state walk before and after, the
 * edit tool; the workspace's removal at the end), taken from the built
 * `dist/` of this checkout and of a baseline checkout, interleaved in
 * rounds at the same concurrency so machine noise hits both alike. CPU is
 * the process's own (user + system, thread pool included), per task.
 *
 *   npm run build && node --import tsx bench/harness-fs-cost.ts [--baseline /path/to/other/checkout] [tasks] [-j J]
 *
 * Without --baseline only this checkout is measured. The baseline needs its
 * own `npm run build` (e.g. a `git worktree` of main).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const at = (flag: string) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : undefined);
const baseline = at('--baseline');
const J = Number(at('-j') ?? 32);
const N = Number(args.find((a, i) => /^\d+$/.test(a) && args[i - 1] !== '-j') ?? 1000);
const ROUNDS = 3;

interface Tree {
  label: string;
  task(ws: string, i: number): Promise<void>;
}

/** The task's harness file steps, as the pipeline runs them, from one built tree. */
async function load(label: string, repo: string): Promise<Tree> {
  const mod = (rel: string) => import(pathToFileURL(join(repo, 'dist', rel)).href);
  const { readTool } = await mod('harness/tools/read.js');
  const { editTool } = await mod('harness/tools/edit.js');
  const { snapshotStage } = await mod('harness/pipeline/snapshot.js');
  const { captureGitState, neutraliseNewGitState } = await mod('harness/sandbox/git-state.js');
  const { removeTree } = await mod('harness/safe-fs/remove-tree.js');
  return {
    label,
    async task(ws, i) {
      const ctx = { workspace: ws, signal: new AbortController().signal };
      const read = await readTool.execute({ file_path: 'notes.txt' }, ctx);
      if (read.isError) throw new Error(`${label}: read failed: ${read.content}`);
      const input = { file_path: 'notes.txt', old_string: 'Helo', new_string: 'Hello' };
      await snapshotStage({ block: { id: `toolu_${i}` }, turn: 2 }, editTool, input, ws, join(ws, '.faultline', 'snapshots'));
      const before = captureGitState(ws);
      const edit = await editTool.execute(input, ctx);
      if (edit.isError) throw new Error(`${label}: edit failed: ${edit.content}`);
      neutraliseNewGitState(ws, before);
      await removeTree(ws);
    },
  };
}

const trees = [await load('this checkout', resolve(import.meta.dirname, '..'))];
if (baseline) trees.unshift(await load(`baseline ${baseline}`, resolve(baseline)));
const base = realpathSync(mkdtempSync(join(tmpdir(), 'faultline-bench-fs-')));
const cpu = new Map<string, number[]>(trees.map((t) => [t.label, []]));
try {
  console.log(`harness file work per task (read, snapshot, git-state walk x2, edit, workspace removal), ${N} tasks at -j ${J}, ${ROUNDS} rounds; load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  let serial = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const tree of trees) {
      // Workspaces are made before the clock starts (the same for both trees).
      const wss = Array.from({ length: N }, () => {
        const ws = join(base, `ws-${serial++}`);
        mkdirSync(ws);
        writeFileSync(join(ws, 'notes.txt'), `Helo from task ${serial}\n`);
        return ws;
      });
      const c0 = process.cpuUsage();
      let next = 0;
      await Promise.all(Array.from({ length: J }, async () => {
        while (next < wss.length) {
          const i = next++;
          await tree.task(wss[i]!, i);
        }
      }));
      const c = process.cpuUsage(c0);
      cpu.get(tree.label)!.push((c.user + c.system) / 1000 / N);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const t of trees) console.log(`  ${t.label}: ${median(cpu.get(t.label)!).toFixed(3)} ms CPU per task (median of ${ROUNDS}: ${cpu.get(t.label)!.map((x) => x.toFixed(3)).join(', ')})`);
  if (trees.length === 2) {
    const [old, now] = trees.map((t) => median(cpu.get(t.label)!));
    console.log(`  ratio baseline / this checkout: ${(old! / now!).toFixed(2)}x`);
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
