/** `faultline validate <paths...>`: every line against the event contract, `file:line: reason` per bad one. */
import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';

export function registerValidate(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('validate')
    .description('check every line of trace files against the event contract (exit 1 if any line is bad)')
    .argument('<paths...>', 'trace files (.jsonl or .jsonl.gz), directories or globs')
    .option('--quiet', 'print only bad lines')
    .option('--json', 'print one JSON document: each file with its line counts and bad lines')
    .action(async (paths: string[], opts: { quiet?: boolean; json?: boolean }) => {
      const [{ checkTraceFile }, { resolveInputs }, { asCliError }] = await Promise.all([
        import('../../events/check-trace.js'),
        import('../../analysis/inputs.js'),
        import('../input-errors.js'),
      ]);
      const inputs = await resolveInputs(paths, io.cwd).catch(asCliError);
      // Parquet holds events compaction already validated; there are no lines to check.
      const files = inputs.filter((f) => f.format === 'jsonl').map((f) => f.path);
      for (const f of inputs) if (f.format === 'parquet' && !opts.quiet) io.stderr(`faultline: skipping ${f.path}: a Parquet file holds events validated when it was compacted\n`);
      if (files.length === 0) throw new CliError('validate checks .jsonl and .jsonl.gz traces; none were named');
      let bad = 0;
      const report: { file: string; lines: number; valid: number; bad: { line: number; reason: string }[] }[] = [];
      for (const file of files) {
        const check = await checkTraceFile(file).catch(asCliError);
        bad += check.bad.length;
        if (opts.json) {
          report.push({ file, lines: check.lines, valid: check.valid, bad: check.bad.map((b) => ({ line: b.line, reason: b.reason })) });
          continue;
        }
        for (const b of check.bad) io.stderr(`${b.file}:${b.line}: ${b.reason}\n`);
        if (!opts.quiet) io.stdout(`${file}: ${check.lines} lines, ${check.valid} valid, ${check.bad.length} bad\n`);
      }
      if (opts.json) io.stdout((await import('../../report/json-format.js')).printJson({ valid: bad === 0, files: report }));
      result.exitCode = bad > 0 ? 1 : 0;
    });
}
