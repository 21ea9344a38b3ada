/** `faultline export otel <traces...> --out <file> | --endpoint <url>`: faultline traces as OTLP/JSON spans. */
import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';

interface ExportFlags {
  out?: string;
  endpoint?: string;
  header: string[];
  batch: string;
  strict?: boolean;
  protocol?: string;
  json?: boolean;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerExport(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('export')
    .description('send faultline traces to an observability stack: OpenTelemetry GenAI spans as OTLP/JSON, to a file or an OTLP/HTTP endpoint')
    .argument('<format>', 'otel')
    .argument('<traces...>', 'trace files, directories or globs (.jsonl, .jsonl.gz)')
    .option('--out <file>', 'write OTLP/JSON, one ExportTraceServiceRequest per line (the Collector file exporter\'s layout)')
    .option('--endpoint <url>', 'POST to an OTLP/HTTP receiver: a base URL that gets /v1/traces appended, as OTEL_EXPORTER_OTLP_ENDPOINT (http://host:4318, https://cloud.langfuse.com/api/public/otel); default: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT (as is), else OTEL_EXPORTER_OTLP_ENDPOINT')
    .option('--protocol <p>', 'http/protobuf (default; what Phoenix accepts) or http/json; default: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL')
    .option('--json', 'print the result as JSON')
    .option('--header <name=value>', 'HTTP header (repeatable), e.g. an API key; added to OTEL_EXPORTER_OTLP_HEADERS / OTEL_EXPORTER_OTLP_TRACES_HEADERS', collect, [])
    .option('--batch <n>', 'spans per request', '512')
    .option('--strict', 'exit 1 when any input line was quarantined')
    .addHelpText('after', '\nExamples:\n  faultline export otel traces/run.jsonl --out reports/run.otlp.jsonl\n  faultline export otel traces/ --endpoint http://127.0.0.1:6006               # Phoenix (OTLP/HTTP protobuf)\n  OTEL_EXPORTER_OTLP_ENDPOINT=https://cloud.langfuse.com/api/public/otel \\\n  OTEL_EXPORTER_OTLP_HEADERS="Authorization=Basic%20<base64 pk:sk>" faultline export otel traces/\n')
    .action(async (format: string, traces: string[], flags: ExportFlags) => {
      if (format !== 'otel') throw new CliError(`unknown export format "${format}" (one of: otel)`);
      const batch = Number(flags.batch);
      if (!Number.isInteger(batch) || batch < 1) throw new CliError(`--batch must be a positive integer, got "${flags.batch}"`);
      const { otlpTarget, OtlpConfigError } = await import('../../importers/otlp-config.js');
      let target = null;
      if (!flags.out) {
        try {
          target = otlpTarget({ endpoint: flags.endpoint, protocol: flags.protocol, header: flags.header }, io.env);
        } catch (error) {
          if (error instanceof OtlpConfigError) throw new CliError(error.message);
          throw error;
        }
        if (target === null) throw new CliError('give one of --out <file> or --endpoint <url> (or set OTEL_EXPORTER_OTLP_ENDPOINT)');
      } else if (flags.endpoint) throw new CliError('give one of --out <file> or --endpoint <url>');
      else if (flags.protocol !== undefined && flags.protocol !== 'http/json') throw new CliError('--out writes OTLP/JSON lines (the Collector file exporter\'s layout): --protocol applies to an endpoint');
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
      } else sink = new sinks.HttpSpanSink(target!.url, { batchSize: batch, headers: target!.headers, protocol: target!.protocol });
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
      const where = flags.out ?? target!.url.href;
      if (flags.json) {
        const { printJson } = await import('../../report/json-format.js');
        io.stdout(printJson({ to: where, protocol: flags.out ? 'file/json' : target!.protocol, spans: done.spans, sessions: done.sessions, model_calls: done.modelCalls, tool_calls: done.toolCalls, requests: done.requests, lines_read: done.lines, events: done.events, lines_quarantined: done.quarantined.length, quarantine: done.quarantined }));
        if (flags.strict && done.quarantined.length > 0) result.exitCode = 1;
        return;
      }
      for (const l of quarantineLines(done.quarantined, 20)) io.stderr(`${l}\n`);
      io.stdout(`exported ${done.spans} spans (${done.sessions} sessions, ${done.modelCalls} model calls, ${done.toolCalls} tool calls) in ${done.requests} requests to ${where}${target ? ` (OTLP/HTTP ${target.protocol === 'http/protobuf' ? 'protobuf' : 'JSON'})` : ''}\n`);
      io.stdout(`lines read = events exported + lines quarantined: ${done.lines} = ${done.events} + ${done.quarantined.length}\n`);
      if (flags.strict && done.quarantined.length > 0) result.exitCode = 1;
    });
}
