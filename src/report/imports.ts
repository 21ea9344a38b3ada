/**
 * How every renderer states an import: per format, its records in the
 * source's own unit, reconciled (records = used + skipped + quarantined),
 * the events written, and what the format cannot record.
 */
import type { ImportSummary } from '../analysis/load.js';

interface FormatTotals {
  format: string;
  unit: string;
  files: number;
  records: number;
  used: number;
  skipped: number;
  quarantined: number;
  events: number;
  reasons: Map<string, number>;
  warnings: Map<string, number>;
  notes: readonly string[];
}

export function importTotals(summaries: readonly ImportSummary[]): FormatTotals[] {
  const by = new Map<string, FormatTotals>();
  for (const s of summaries) {
    const t = by.get(s.format) ?? { format: s.format, unit: s.unit, files: 0, records: 0, used: 0, skipped: 0, quarantined: 0, events: 0, reasons: new Map(), warnings: new Map(), notes: s.notes };
    t.files++;
    t.records += s.records;
    t.used += s.used;
    t.quarantined += s.quarantined;
    t.events += s.events;
    for (const [reason, n] of Object.entries(s.skipped)) {
      t.skipped += n;
      t.reasons.set(reason, (t.reasons.get(reason) ?? 0) + n);
    }
    for (const [text, n] of Object.entries(s.warnings ?? {})) t.warnings.set(text, (t.warnings.get(text) ?? 0) + n);
    by.set(s.format, t);
  }
  return [...by.values()];
}

const s = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** `claude-code (3 files): 950 lines = 900 used + 40 skipped + 10 quarantined -> 2300 events`. */
export function importReconciliation(t: FormatTotals): string {
  return `${t.format} (${s(t.files, 'file')}): ${s(t.records, t.unit)} = ${t.used} used + ${t.skipped} skipped + ${t.quarantined} quarantined -> ${s(t.events, 'event')}`;
}

/** The lines `faultline import` prints: the reconciliation, the skip reasons, the format's notes. */
export function importSummaryLines(summaries: readonly ImportSummary[]): string[] {
  const out: string[] = [];
  for (const t of importTotals(summaries)) {
    out.push(importReconciliation(t));
    const reasons = [...t.reasons].sort((a, b) => b[1] - a[1]);
    for (const [reason, n] of reasons.slice(0, 10)) out.push(`  skipped ${n}: ${reason}`);
    if (reasons.length > 10) out.push(`  … and ${reasons.length - 10} more skip reasons (all of them in report --json)`);
    for (const [text, n] of t.warnings) out.push(`  warning (${s(n, t.unit)}): ${text}`);
    for (const note of t.notes) out.push(`  not available in source: ${note}`);
  }
  return out;
}

/**
 * `faultline import --explain`: per format, each kind of record (as the
 * importer names it) with how many were used and the events they became,
 * the skipped ones by reason and the quarantined ones by reason, so a user
 * can see why a figure is what it is.
 */
export function importExplainLines(summaries: readonly ImportSummary[], quarantined: readonly { reason: string }[] = []): string[] {
  const out: string[] = [];
  for (const t of importTotals(summaries)) {
    out.push(`explain ${importReconciliation(t)}`);
    const kinds = new Map<string, { records: number; events: Map<string, number> }>();
    for (const sm of summaries.filter((x) => x.format === t.format)) {
      for (const [kind, k] of Object.entries(sm.kinds ?? {})) {
        const into = kinds.get(kind) ?? { records: 0, events: new Map<string, number>() };
        into.records += k.records;
        for (const [e, n] of Object.entries(k.events)) into.events.set(e, (into.events.get(e) ?? 0) + n);
        kinds.set(kind, into);
      }
    }
    const withEvents = [...kinds.values()].reduce((n, k) => n + k.records, 0);
    out.push(`  used ${t.used}:`);
    for (const [kind, k] of [...kinds].sort((a, b) => b[1].records - a[1].records)) {
      out.push(`    ${kind}: ${s(k.records, t.unit)} -> ${[...k.events].map(([e, n]) => `${e} ${n}`).join(', ')}`);
    }
    if (t.used > withEvents) out.push(`    ${s(t.used - withEvents, t.unit)} with no event of their own (read into other records' events: usage totals, tool lists, pairing)`);
    out.push(`  skipped ${t.skipped}:`);
    for (const [reason, n] of [...t.reasons].sort((a, b) => b[1] - a[1])) out.push(`    ${reason}: ${n}`);
    out.push(`  quarantined ${t.quarantined}:`);
    const reasons = new Map<string, number>();
    for (const q of quarantined) reasons.set(q.reason, (reasons.get(q.reason) ?? 0) + 1);
    for (const [reason, n] of [...reasons].sort((a, b) => b[1] - a[1]).slice(0, 20)) out.push(`    ${reason}: ${n}`);
  }
  return out;
}
