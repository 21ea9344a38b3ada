/** `faultline schema <suites...>`: the exact tools payload each wire receives, and its size per tool. */
import type { Command } from 'commander';
import { Option } from 'commander';
import type { PayloadWire } from '../../providers/dialects/payload.js';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';

interface SchemaOptions {
  provider?: PayloadWire;
  strict?: boolean;
  sizes?: boolean;
  json?: boolean;
}

export function registerSchema(program: Command, io: CliIo, _result: CommandResult): void {
  program
    .command('schema')
    .description('print the exact tools payload each provider wire receives for a suite, with its byte size per tool')
    .argument('<suites...>', 'suite files (.yaml) or directories of them')
    .addOption(new Option('--provider <wire>', 'only this wire (default: all four)').choices(['anthropic', 'openai', 'responses', 'gemini']))
    .option('--strict', 'strict tool use: the wire\'s strict schema subset plus strict: true')
    .option('--sizes', 'print only the size table')
    .option('--json', 'print one JSON document: per wire, the tools payload and its sizes')
    .addHelpText('after', '\nSizes are of the compact JSON as sent (UTF-8 bytes).\n\nExamples:\n  faultline schema suites/demo\n  faultline schema suites/demo --provider openai --strict\n')
    .action(async (paths: string[], opts: SchemaOptions) => {
      const [{ toolsPayload }, { suiteToolDefinitions }, { loadSuitesForCli }] = await Promise.all([
        import('../../providers/dialects/payload.js'),
        import('../../suites/suite-tools.js'),
        import('../load-suites.js'),
      ]);
      const tasks = loadSuitesForCli(paths, io);
      const definitions = suiteToolDefinitions(tasks);
      const families: PayloadWire[] = opts.provider ? [opts.provider] : ['anthropic', 'openai', 'responses', 'gemini'];
      if (opts.json) {
        const { printJson } = await import('../../report/json-format.js');
        const wires = families.map((family) => {
          const payload = toolsPayload(family, definitions, { strict: opts.strict ?? false });
          return { wire: family, strict: payload.strict, tools: payload.tools, sizes: payload.sizes.map((s) => ({ name: s.name, bytes: s.bytes })), total_bytes: payload.totalBytes };
        });
        io.stdout(printJson({ wires }));
        return;
      }
      for (const family of families) {
        const payload = toolsPayload(family, definitions, { strict: opts.strict ?? false });
        io.stdout(`# ${family} (strict ${payload.strict ? 'on' : 'off'}): ${payload.tools.length} tools, ${payload.totalBytes} bytes\n`);
        if (!opts.sizes) io.stdout(`${JSON.stringify(payload.tools, null, 2)}\n`);
        const width = Math.max(4, ...payload.sizes.map((s) => s.name.length));
        for (const s of payload.sizes) io.stdout(`${s.name.padEnd(width)}  ${String(s.bytes).padStart(6)} B\n`);
        io.stdout(`${'total'.padEnd(width)}  ${String(payload.totalBytes).padStart(6)} B\n\n`);
      }
    });
}
