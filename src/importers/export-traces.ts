/**
 * `faultline export otel`: reads faultline traces line by line (every line
 * judged as `faultline validate` judges it; a bad one is listed, not sent),
 * turns their events into spans and hands each batch to a sink, reading on
 * only once the sink has taken what is ready, so memory holds the open
 * sessions and one batch, however large the traces.
 */
import type { QuarantinedLine } from '../analysis/load.js';
import { forEachLineBytes, parseLineBytes } from '../events/trace-lines.js';
import { OtlpExporter, type ExportCounts } from './otel-export.js';
import type { SpanSink } from './otlp-sinks.js';

export interface ExportResult extends ExportCounts {
  lines: number;
  events: number;
  requests: number;
  quarantined: QuarantinedLine[];
}

export async function exportTraces(files: string[], sink: SpanSink): Promise<ExportResult> {
  const exporter = new OtlpExporter((span, runId) => sink.add(span, runId));
  const result: ExportResult = { lines: 0, events: 0, requests: 0, quarantined: [], spans: 0, sessions: 0, modelCalls: 0, toolCalls: 0 };
  try {
    for (const file of files) {
      result.lines += await forEachLineBytes(
        file,
        (buf, start, end, line, unterminated) => {
          const verdict = parseLineBytes(buf.subarray(start, end), unterminated);
          if (!verdict.ok) return void result.quarantined.push({ file, line, kind: verdict.kind, reason: verdict.reason });
          result.events++;
          exporter.event(verdict.event);
        },
        undefined,
        () => sink.drain(),
      );
    }
    exporter.finish();
    await sink.drain(true);
  } finally {
    sink.close();
  }
  return { ...result, ...exporter.counts, requests: sink.requests };
}
