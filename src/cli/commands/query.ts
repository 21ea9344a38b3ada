/** `faultline query "<sql>" <paths...>`: ad-hoc SQL over the `events` view and one view per event type. */
import type { Command } from 'commander';
import { plural } from '../../report/plural.js';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../program.js';
import { useColor } from './report.js';
import type { FormatName } from '../../importers/types.js';
import { formatOption, traceSources } from '../trace-sources.js';

export function registerQuery(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('query')
    .description('run SQL over traces: views `events` and one per event type (tool_call, tool_failure, ...)')
    .argument('<sql>', 'a DuckDB SELECT statement')
    .argument('<paths...>', 'trace files, directories or globs')
    .option('--json', 'rows as JSON')
    .addOption(formatOption())
    .action(async (sql: string, paths: string[], flags: { json?: boolean; format?: FormatName }) => {
      const [{ queryTraces }, { reconciliation }, { renderSectionTable }, { asCliError }] = await Promise.all([
        import('../../analysis/query.js'),
        import('../../report/findings.js'),
        import('../../report/terminal.js'),
        import('../input-errors.js'),
      ]);
      const sources = await traceSources(io, flags.format);
      const out = await queryTraces(sql, paths, { cwd: io.cwd, onProgress: readProgress(io), sources }).catch((error: unknown) => {
        if (error instanceof Error && /(Parser|Binder|Catalog|Conversion) Error/.test(error.message)) throw new CliError(error.message);
        return asCliError(error);
      });
      if (flags.json) {
        io.stdout(JSON.stringify({ columns: out.columns, rows: out.rows, quarantined: out.load.quarantined.length }, null, 2) + '\n');
      } else {
        io.stdout(renderSectionTable({ columns: out.columns, rows: out.rows }, useColor(io)) + '\n');
        io.stdout(`${plural(out.rows.length, 'row')}; ${reconciliation({ load: out.load, reports: [] })}\n`);
      }
      result.exitCode = 0;
    });
}
