/** `faultline report <paths...>`: every report over trace files, in the terminal, JSON, Markdown or HTML. */
import type { Command } from 'commander';
import type { ReportFormat } from '../../report/report-for-files.js';
import type { FormatName } from '../../importers/types.js';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../program.js';
import { formatOption, traceSources } from '../trace-sources.js';

interface ReportFlags {
  json?: boolean;
  md?: boolean;
  html?: string;
  strict?: boolean;
  format?: FormatName;
  /** false with --no-cache. */
  cache?: boolean;
}

/** Colour only on a TTY, and never when NO_COLOR is set (https://no-color.org). */
export function useColor(io: CliIo): boolean {
  return io.isTTY && !io.env.NO_COLOR;
}

export function registerReport(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('report')
    .description('tool funnel, failure kinds, per-tool latency, permissions, defenses, sessions and model calls from traces')
    .argument('<paths...>', 'trace files, directories or globs (.jsonl, .jsonl.gz, .parquet; other formats with --format or by content)')
    .option('--json', 'JSON output (every quarantined line included)')
    .option('--md', 'Markdown output (fits a CI step summary)')
    .option('--html <dir>', 'write a self-contained <dir>/index.html with charts')
    .option('--strict', 'exit 1 when any line was quarantined')
    .option('--no-cache', 'read every trace afresh and keep nothing in the row cache')
    .addOption(formatOption())
    .action(async (paths: string[], flags: ReportFlags) => {
      if ([flags.json, flags.md, flags.html].filter(Boolean).length > 1) throw new CliError('choose one of --json, --md, --html');
      const format: ReportFormat = flags.json ? 'json' : flags.md ? 'md' : flags.html ? 'html' : 'terminal';
      const [{ reportForFiles }, { asCliError }] = await Promise.all([import('../../report/report-for-files.js'), import('../input-errors.js')]);
      const sources = await traceSources(io, flags.format);
      const cache = { enabled: flags.cache !== false, env: io.env };
      const out = await reportForFiles(paths, { format, htmlDir: flags.html, color: useColor(io), cwd: io.cwd, onProgress: readProgress(io), sources, cache }).catch(asCliError);
      io.stdout(out.text);
      if (flags.strict && out.quarantined.length > 0) {
        io.stderr(`faultline: --strict: ${out.quarantined.length} lines quarantined\n`);
        result.exitCode = 1;
      }
    });
}
