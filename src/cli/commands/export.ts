/** `faultline export otel <traces...> --out <file> | --endpoint <url>`: faultline traces as OTLP/JSON spans. */
import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../program.js';

interface ExportFlags {
  out?: string;
  endpoint?: string;
  header: string[];
  batch: string;
  strict?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerExport(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('export')
    .description('send faultline traces to an observability stack: OpenTelemetry GenAI spans as OTLP/JSON, to a file or an OTLP/HTTP endpoint')
    .argument('<format>', 'otel')
    .argument('<traces...>', 'trace files, directories or globs (.jsonl, .jsonl.gz)')
    .option('--out <file>', 'write OTLP/JSON, one ExportTraceServiceRequest per line (the Collector file exporter\'s layout)')
    .option('--endpoint <url>', 'POST to an OTLP/HTTP receiver (http://host:4318 gets /v1/traces; a URL with a path is used as given)')
    .option('--header <name=value>', 'HTTP header for --endpoint (repeatable), e.g. an API key', collect, [])
    .option('--batch <n>', 'spans per request', '512')
    .option('--strict', 'exit 1 when any input line was quarantined')
    .addHelpText('after', '\nExamples:\n  faultline export otel traces/run.jsonl --out reports/run.otlp.jsonl\n  faultline export otel traces/ --endpoint http://127.0.0.1:4318\n')
    .action(async (format: string, traces: string[], flags: ExportFlags) => {
      if (format !== 'otel') throw new CliError(`unknown export format "${format}" (one of: otel)`);
      if (!flags.out === !flags.endpoint) throw new CliError('give one of --out <file> or --endpoint <url>');
      const batch = Number(flags.batch);
      if (!Number.isInteger(batch) || batch < 1) throw new CliError(`--batch must be a positive integer, got "${flags.batch}"`);
      const headers: Record<string, string> = {};
      for (const h of flags.header) {
        const at = h.indexOf('=');
        if (at < 1) throw new CliError(`--header must be name=value, got "${h}"`);
        headers[h.slice(0, at).trim()] = h.slice(at + 1).trim();
      }
      let endpoint: URL | null = null;
      if (flags.endpoint) {
        try {
          endpoint = new URL(flags.endpoint);
        } catch {
          throw new CliError(`--endpoint is not a URL: ${flags.endpoint}`);
        }
        if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') throw new CliError(`--endpoint must be http(s): ${flags.endpoint}`);
      }
      const [{ resolve, dirname }, { mkdirSync }, { resolveInputs }, { asCliError }, { exportTraces }, sinks, { quarantineLines }] = await Promise.all([
        import('node:path'),
        import('node:fs'),
        import('../../analysis/inputs.js'),
        import('../input-errors.js'),
        import('../../importers/export-traces.js'),
        import('../../importers/otlp-sinks.js'),
        import('../../report/quarantine.js'),
      ]);
      const files = (await resolveInputs(traces, io.cwd).catch(asCliError)).filter((f) => f.format === 'jsonl').map((f) => f.path);
      if (files.length === 0) throw new CliError('export reads .jsonl and .jsonl.gz traces (compact a Parquet file\'s sources instead)');
      let sink;
      if (flags.out) {
        const out = resolve(io.cwd, flags.out);
        mkdirSync(dirname(out), { recursive: true });
        sink = new sinks.FileSpanSink(out, batch);
      } else sink = new sinks.HttpSpanSink(flags.endpoint as string, { batchSize: batch, headers });
      let done;
      try {
        done = await exportTraces(files, sink);
      } catch (error) {
        if (error instanceof sinks.ExportError) {
          io.stderr(`faultline: export failed: ${error.message}\n`);
          result.exitCode = 1;
          return;
        }
        return asCliError(error);
      }
      for (const l of quarantineLines(done.quarantined, 20)) io.stderr(`${l}\n`);
      const where = flags.out ?? sinks.tracesUrl(flags.endpoint as string).href;
      io.stdout(`exported ${done.spans} spans (${done.sessions} sessions, ${done.modelCalls} model calls, ${done.toolCalls} tool calls) in ${done.requests} requests to ${where}\n`);
      io.stdout(`lines read = events exported + lines quarantined: ${done.lines} = ${done.events} + ${done.quarantined.length}\n`);
      if (flags.strict && done.quarantined.length > 0) result.exitCode = 1;
    });
}
