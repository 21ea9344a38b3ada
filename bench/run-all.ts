/**
 * `npm run bench`: every benchmark, one after another, each in its own
 * process so one's heap does not colour the next one's numbers.
 * Pass --full to include the slow ones (the 10M-event analysis run).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const full = process.argv.includes('--full');
const benches: { file: string; args: string[]; full?: boolean }[] = [
  { file: 'bench/harness-overhead.ts', args: [] },
  { file: 'bench/mcp.ts', args: [] },
  { file: 'bench/sandbox-cost.ts', args: [] },
  { file: 'bench/analysis/bench.ts', args: full ? ['1000000', '10000000'] : ['1000000'] },
  { file: 'bench/importers/bench.ts', args: full ? ['--full'] : [] },
];

let failed = 0;
for (const bench of benches) {
  if (!existsSync(bench.file)) continue;
  console.log(`\n=== ${bench.file} ${bench.args.join(' ')}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', bench.file, ...bench.args], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exitCode = failed > 0 ? 1 : 0;
