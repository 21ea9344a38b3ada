/**
 * Importer benchmark (issue 13). For each format, in its own process (so one
 * import's heap does not colour the next one's peak), one run:
 *   records/s, events/s written, MB/s read, and the peak RSS;
 * and for the Claude Code transcript directory the RSS when a quarter of the
 * bytes had been read and at the end: an import that streams keeps them
 * level however large the directory (bounded memory), while one that held the
 * input would grow with it.
 *
 *   node --import tsx bench/importers/bench.ts [--full]      (claude-code: 256 MB; --full: 1 GB)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { glob } from 'tinyglobby';
import { importFiles } from '../../src/importers/import-files.js';
import { IMPORTERS } from '../../src/importers/registry.js';
import type { FormatName } from '../../src/importers/types.js';
import { agentsFile, claudeCodeDir, otelFile, tauFile } from './generate.js';

const OUT = 'bench/out/importers';
const mb = (n: number) => (n / 1e6).toFixed(1);

interface Result {
  format: string;
  inputBytes: number;
  files: number;
  records: number;
  events: number;
  seconds: number;
  /** CPU seconds of the import (user + system): on a shared machine, the steadier rate. */
  cpuSeconds: number;
  peakRss: number;
  rssAtQuarter: number;
  rssAtEnd: number;
}

/** Child: import one input, sampling RSS as it goes. */
async function one(format: FormatName, input: string): Promise<Result> {
  const importer = IMPORTERS[format];
  const files = statSync(input).isDirectory() ? (await glob('**/*.jsonl', { cwd: input, absolute: true })).sort() : [input];
  const inputBytes = files.reduce((n, f) => n + statSync(f).size, 0);
  const dir = mkdtempSync(join(tmpdir(), 'faultline-bench-import-'));
  let peak = process.memoryUsage().rss;
  let quarter = 0;
  let last = 0;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
  try {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await importFiles(
      files.map((path) => ({ path, importer })),
      join(dir, 'out.jsonl'),
      ({ bytesRead, bytesTotal }) => {
        const rss = process.memoryUsage().rss;
        peak = Math.max(peak, rss);
        if (quarter === 0 && bytesRead >= bytesTotal / 4) quarter = rss;
        last = rss;
      },
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(c0);
    const records = result.summaries.reduce((n, s) => n + s.records, 0);
    return { format, inputBytes, files: files.length, records, events: result.events, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRss: peak, rssAtQuarter: quarter, rssAtEnd: last };
  } finally {
    clearInterval(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[2] === '--one') {
  const result = await one(process.argv[3] as FormatName, process.argv[4] as string);
  process.stdout.write(JSON.stringify(result));
} else {
  const full = process.argv.includes('--full');
  const inputs: [FormatName, string][] = [
    ['claude-code', claudeCodeDir(OUT, full ? 1024 : 256)],
    ['otel', otelFile(OUT, 500_000)],
    ['openai-agents', agentsFile(OUT, 500_000)],
    ['tau-bench', tauFile(OUT, 5_000)],
  ];
  console.log('format          input MB  files    records     events  wall s   cpu s   events/s  events/cpu-s  MB/cpu-s  peak RSS MB  RSS at 25% / end MB');
  for (const [format, input] of inputs) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/importers/bench.ts', '--one', format, input], { encoding: 'utf8', maxBuffer: 1 << 24 });
    if (child.status !== 0) {
      console.error(child.stderr);
      process.exitCode = 1;
      continue;
    }
    const r = JSON.parse(child.stdout) as Result;
    const rate = (n: number, s: number) => Math.round(n / s).toLocaleString('en-US');
    console.log(
      `${format.padEnd(14)} ${mb(r.inputBytes).padStart(9)} ${String(r.files).padStart(6)} ${String(r.records).padStart(10)} ${String(r.events).padStart(10)} ${r.seconds.toFixed(1).padStart(7)} ${r.cpuSeconds.toFixed(1).padStart(7)} ${rate(r.events, r.seconds).padStart(10)} ${rate(r.events, r.cpuSeconds).padStart(13)} ${(r.inputBytes / 1e6 / r.cpuSeconds).toFixed(1).padStart(9)} ${mb(r.peakRss).padStart(12)}  ${mb(r.rssAtQuarter)} / ${mb(r.rssAtEnd)}`,
    );
  }
  console.log('Peak RSS includes Node and tsx (~100 MB). Bounded memory: for claude-code the RSS at the end stays near the RSS at 25% of the bytes read, and well below the input size.');
}
