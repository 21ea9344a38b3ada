/** `faultline import <format> <paths...> --out <file.jsonl>`: traces of another format as contract events. */
import type { Command } from 'commander';
import { FORMAT_NAMES, type FormatName } from '../../importers/types.js';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { importProgress } from '../trace-sources.js';

interface ImportFlags {
  out: string;
  strict?: boolean;
  explain?: boolean;
  json?: boolean;
}

export function registerImport(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('import')
    .description(`convert traces of another format (${FORMAT_NAMES.join(', ')}) to faultline events; every record is used, skipped or quarantined`)
    .argument('<format>', FORMAT_NAMES.join(' | '))
    .argument('<paths...>', 'files, directories (searched for the format\'s files) or globs')
    .requiredOption('--out <file>', 'the .jsonl trace to write')
    .option('--strict', 'exit 1 when any record was quarantined')
    .option('--explain', 'say, per kind of record, how many were used (and the events they became), skipped or quarantined, and why')
    .option('--json', 'print the result as JSON (each file\'s records: used, skipped, quarantined)')
    .addHelpText('after', '\nExamples:\n  faultline import claude-code ~/.claude/projects/my-project --out traces/claude.jsonl\n  faultline import otel otel-export.json --out traces/otel.jsonl\n  faultline report ~/.claude/projects/my-project            # the same, straight into a report\n')
    .action(async (format: string, paths: string[], flags: ImportFlags) => {
      if (!(FORMAT_NAMES as readonly string[]).includes(format)) throw new CliError(`unknown format "${format}" (one of: ${FORMAT_NAMES.join(', ')})`);
      if (!flags.out.endsWith('.jsonl')) throw new CliError('--out must name a .jsonl file');
      const [{ resolve, dirname }, { mkdirSync }, { resolveFormatFiles }, { importFiles }, { IMPORTERS }, { asCliError }, { importSummaryLines, importExplainLines }, { quarantineLines }] = await Promise.all([
        import('node:path'),
        import('node:fs'),
        import('../../importers/sources.js'),
        import('../../importers/import-files.js'),
        import('../../importers/registry.js'),
        import('../input-errors.js'),
        import('../../report/imports.js'),
        import('../../report/quarantine.js'),
      ]);
      const importer = IMPORTERS[format as FormatName];
      const files = await resolveFormatFiles(paths, importer, io.cwd).catch(asCliError);
      const out = resolve(io.cwd, flags.out);
      mkdirSync(dirname(out), { recursive: true });
      const done = await importFiles(files.map((path) => ({ path, importer })), out, importProgress(io));
      if (flags.json) {
        const { printJson, importSummaryJson } = await import('../../report/json-format.js');
        io.stdout(printJson({ wrote: flags.out, events: done.events, files: done.summaries.map(importSummaryJson), quarantine: done.quarantined }));
      } else {
        for (const l of quarantineLines(done.quarantined, 20)) io.stderr(`${l}\n`);
        for (const l of importSummaryLines(done.summaries)) io.stdout(`${l}\n`);
        if (flags.explain) for (const l of importExplainLines(done.summaries, done.quarantined)) io.stdout(`${l}\n`);
        io.stdout(`wrote ${flags.out}: ${done.events} events from ${files.length} file${files.length === 1 ? '' : 's'}\n`);
      }
      if (done.events === 0) {
        io.stderr(`faultline: no events imported: the inputs hold no ${format} records faultline can map\n`);
        result.exitCode = 1;
      } else if (flags.strict && done.quarantined.length > 0) {
        io.stderr(`faultline: --strict: ${done.quarantined.length} records quarantined\n`);
        result.exitCode = 1;
      }
    });
}
