/** `faultline query "<sql>" <paths...>`: ad-hoc SQL over the `events` view and one view per event type. */
import type { Command } from 'commander';
import { plural } from '../../report/plural.js';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { useColor } from './report.js';
import type { FormatName } from '../../importers/types.js';
import { formatOption, traceSources } from '../trace-sources.js';

export function registerQuery(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('query')
    .description('run one read-only SQL statement over traces: views `events` and one per event type (tool_call, tool_failure, ...)')
    .argument('<sql>', 'exactly one read-only statement: a DuckDB SELECT (or WITH, FROM-first, DESCRIBE, SUMMARIZE)')
    .argument('<paths...>', 'trace files, directories or globs')
    .option('--json', 'rows as JSON')
    .addOption(formatOption())
    .addHelpText(
      'after',
      '\nThe query runs exactly one read-only statement over the loaded traces: several statements, and anything that\n' +
        'writes or changes state (COPY ... TO, ATTACH, INSTALL/LOAD, CREATE, INSERT, EXPORT, SET, PRAGMA, CALL, ...), are\n' +
        'refused (exit 2), and it reads no other file, URL or extension. An unknown table lists the views.\n\n' +
        'Examples:\n  faultline query "select tool, count(*) from tool_failure group by 1" traces/\n  faultline query "describe events" traces/\n',
    )
    .action(async (sql: string, paths: string[], flags: { json?: boolean; format?: FormatName }) => {
      const [{ queryTraces, QueryError }, { reconciliation }, { renderSectionTable }, { asCliError }] = await Promise.all([
        import('../../analysis/query.js'),
        import('../../report/findings.js'),
        import('../../report/terminal.js'),
        import('../input-errors.js'),
      ]);
      const sources = await traceSources(io, flags.format);
      const out = await queryTraces(sql, paths, { cwd: io.cwd, onProgress: readProgress(io), sources }).catch((error: unknown) => {
        if (error instanceof QueryError) throw new CliError(error.message);
        return asCliError(error);
      });
      if (flags.json) {
        io.stdout((await import('../../report/json-format.js')).printJson({ columns: out.columns, rows: out.rows, quarantined: out.load.quarantined.length }));
      } else {
        io.stdout(renderSectionTable({ columns: out.columns, rows: out.rows }, useColor(io)) + '\n');
        io.stdout(`${plural(out.rows.length, 'row')}; ${reconciliation({ load: out.load })}\n`);
      }
      result.exitCode = 0;
    });
}
