/** `faultline diff <base> <candidate>`: what changed between two runs, with confidence intervals. */
import { Option, type Command } from 'commander';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { useColor } from './report.js';
import type { FormatName } from '../../importers/types.js';
import { formatOption, traceSources } from '../trace-sources.js';

interface DiffFlags {
  json?: boolean;
  md?: boolean;
  failOnRegression?: boolean;
  p95Threshold?: string;
  flips?: 'scripted' | 'always' | 'never';
  strict?: boolean;
  format?: FormatName;
  /** false with --no-cache. */
  cache?: boolean;
}

/** Exactly what --fail-on-regression fails on (src/analysis/diff.ts and task-diff.ts compute each). */
const REGRESSION_HELP = `
What counts as a regression (each is listed under Regressions; --fail-on-regression exits 1 on any):
  - a task flipped PASS -> FAIL: on both sides it has ended sessions (same task id), every one passed
    in the base (pass^k over --repeat), and at least one failed, errored or was aborted in the
    candidate. Named with its first failed expectation. Counted when both sides ran on the mock or
    a replay (deterministic); on a live or imported side flips are listed but do not count alone
    (--flips always|never changes that). A task on one side only, or with no outcome on a side
    (cut short, or not recorded by an imported source), is listed and is not a regression.
  - the pass rate over ended sessions fell significantly: the Newcombe 95% interval of the change
    lies wholly below 0 (the test for live, non-deterministic runs; a small suite needs a big drop).
  - a tool's p95 rose by more than --p95-threshold percent, with >= 20 executed calls each side.
  - the rate of exception or timeout failures over all tool calls rose significantly (95% interval
    of the change above 0); tool_error and pre-execution kinds are shown, not flagged.
  - lost tool calls in the candidate (calls - successes - failures must be 0), and a defense that
    was firing in the base and is unwired (armed, never evaluated) in the candidate.
`;

export function registerDiff(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('diff')
    .description('compare two runs: per-tool p95, failure-kind rates, defense triggers, pass rate (Wilson 95%)')
    .argument('<base>', 'baseline traces (file, directory or glob)')
    .argument('<candidate>', 'candidate traces (file, directory or glob)')
    .option('--json', 'JSON output')
    .option('--md', 'Markdown output')
    .option('--fail-on-regression', 'exit 1 when a regression is found (see "What counts as a regression" below; a side with no sessions always exits 1: nothing to compare)')
    .option('--strict', 'exit 1 when either side quarantined a line, has an empty input file, or has no events')
    .option('--p95-threshold <percent>', 'relative p95 increase that counts as a regression', '20')
    .addOption(new Option('--flips <when>', 'when a task that passed in the base and fails in the candidate is a regression by itself: scripted (both sides ran on the mock or a replay), always, never').choices(['scripted', 'always', 'never']).default('scripted'))
    .option('--no-cache', 'read every trace afresh and keep nothing in the row cache')
    .addOption(formatOption())
    .addHelpText('after', REGRESSION_HELP)
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
      const diff = diffAnalyses(a, b, { p95Threshold: threshold / 100, flips: flags.flips ?? 'scripted' });
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
