/** `faultline validate <files...>`: every line against the event contract, `file:line: reason` per bad one. */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../program.js';

export function registerValidate(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('validate')
    .description('check every line of trace files against the event contract (exit 1 if any line is bad)')
    .argument('<files...>', 'trace files (.jsonl or .jsonl.gz)')
    .option('--quiet', 'print only bad lines')
    .action(async (files: string[], opts: { quiet?: boolean }) => {
      const { checkTraceFile } = await import('../../events/check-trace.js');
      let bad = 0;
      for (const file of files) {
        if (!existsSync(file)) throw new CliError(`${file}: no such file`);
        const check = await checkTraceFile(file);
        for (const b of check.bad) io.stderr(`${b.file}:${b.line}: ${b.reason}\n`);
        bad += check.bad.length;
        if (!opts.quiet) io.stdout(`${file}: ${check.lines} lines, ${check.valid} valid, ${check.bad.length} bad\n`);
      }
      result.exitCode = bad > 0 ? 1 : 0;
    });
}
