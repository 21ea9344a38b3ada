/** `faultline diff <base> <candidate>`: what changed between two runs, with confidence intervals. */
import type { Command } from 'commander';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../program.js';
import { useColor } from './report.js';
import type { FormatName } from '../../importers/types.js';
import { formatOption, traceSources } from '../trace-sources.js';

interface DiffFlags {
  json?: boolean;
  md?: boolean;
  failOnRegression?: boolean;
  p95Threshold?: string;
  strict?: boolean;
  format?: FormatName;
  /** false with --no-cache. */
  cache?: boolean;
}

export function registerDiff(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('diff')
    .description('compare two runs: per-tool p95, failure-kind rates, defense triggers, pass rate (Wilson 95%)')
    .argument('<base>', 'baseline traces (file, directory or glob)')
    .argument('<candidate>', 'candidate traces (file, directory or glob)')
    .option('--json', 'JSON output')
    .option('--md', 'Markdown output')
    .option('--fail-on-regression', 'exit 1 when a regression is found (a side with no sessions always exits 1: nothing to compare)')
    .option('--strict', 'exit 1 when either side quarantined a line, has an empty input file, or has no events')
    .option('--p95-threshold <percent>', 'relative p95 increase that counts as a regression', '20')
    .option('--no-cache', 'read every trace afresh and keep nothing in the row cache')
    .addOption(formatOption())
    .action(async (base: string, candidate: string, flags: DiffFlags) => {
      const threshold = Number(flags.p95Threshold ?? '20');
      if (!Number.isFinite(threshold) || threshold < 0) throw new CliError('--p95-threshold must be a non-negative number (percent)');
      const [{ analyzeTraces }, { diffAnalyses }, { renderDiff }, { diffRefusal, diffSideLines }, { asCliError }, { strictProblems }] = await Promise.all([
        import('../../analysis/analyze.js'),
        import('../../analysis/diff.js'),
        import('../../report/diff-render.js'),
        import('../../report/diff-sides.js'),
        import('../input-errors.js'),
        import('../strict.js'),
      ]);
      const sources = await traceSources(io, flags.format);
      const options = { cwd: io.cwd, onProgress: readProgress(io), sources, cache: { enabled: flags.cache !== false, env: io.env } };
      const a = await analyzeTraces([base], options).catch(asCliError);
      const b = await analyzeTraces([candidate], options).catch(asCliError);
      const diff = diffAnalyses(a, b, { p95Threshold: threshold / 100 });
      const refused = diffRefusal(diff.sides);
      // A side with no sessions has no pass rate, latency or triage to compare: "no regressions" would be a lie.
      if (refused !== null) throw new CliError(refused, 1);
      const sides = [diffSideLines('base', a), diffSideLines('candidate', b)];
      io.stdout(renderDiff(diff, { format: flags.json ? 'json' : flags.md ? 'md' : 'terminal', color: useColor(io), sides, wrap: io.isTTY }));
      if (flags.failOnRegression && diff.regressions.length > 0) result.exitCode = 1;
      const problems = [...strictProblems(a.load).map((p) => `base: ${p}`), ...strictProblems(b.load).map((p) => `candidate: ${p}`)];
      if (flags.strict && problems.length > 0) {
        io.stderr(`faultline: --strict: ${problems.join('; ')}\n`);
        result.exitCode = 1;
      }
    });
}
