/** `faultline compact <paths...> --to <file.parquet>`: contract-valid events to Parquet (quarantined lines left out, and listed). */
import type { Command } from 'commander';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { resolve } from 'node:path';
import type { FormatName } from '../../importers/types.js';
import { formatOption, traceSources } from '../trace-sources.js';

export function registerCompact(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('compact')
    .description('write the valid events of traces to one Parquet file (reports read .parquet like .jsonl)')
    .argument('<paths...>', 'trace files, directories or globs')
    .requiredOption('--to <file>', 'output .parquet file')
    .option('--json', 'print the result as JSON')
    .option('--memory-limit <size>', "DuckDB's memory limit while sorting (e.g. 512MB, 4GB); past it the sort spills to a temporary directory (default 1GB)")
    .addOption(formatOption())
    .action(async (paths: string[], flags: { to: string; format?: FormatName; json?: boolean; memoryLimit?: string }) => {
      if (!flags.to.endsWith('.parquet')) throw new CliError('--to must name a .parquet file');
      if (flags.memoryLimit !== undefined && !/^\d+(\.\d+)?\s*(B|KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(flags.memoryLimit)) throw new CliError(`--memory-limit ${flags.memoryLimit}: a size such as 512MB or 4GB`);
      const [{ compactTraces }, { reconciliation }, { quarantineLines }, { asCliError }] = await Promise.all([
        import('../../analysis/compact.js'),
        import('../../report/findings.js'),
        import('../../report/quarantine.js'),
        import('../input-errors.js'),
      ]);
      const sources = await traceSources(io, flags.format);
      const load = await compactTraces(paths, resolve(io.cwd, flags.to), { cwd: io.cwd, onProgress: readProgress(io), sources, memoryLimit: flags.memoryLimit }).catch(asCliError);
      if (flags.json) {
        io.stdout((await import('../../report/json-format.js')).printJson({ wrote: flags.to, lines_read: load.linesRead, events_used: load.eventsUsed, lines_quarantined: load.quarantined.length, quarantine: load.quarantined }));
        return;
      }
      for (const l of quarantineLines(load.quarantined, 20)) io.stderr(`${l}\n`);
      io.stdout(`wrote ${flags.to}: ${load.eventsUsed} events\n${reconciliation({ load })}\n`);
      result.exitCode = 0;
    });
}
