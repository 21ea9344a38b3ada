/**
 * The one call behind `faultline report` and `faultline run --report`:
 * analyze trace files and render them in one format.
 */
import { analyzeTraces, type AnalyzeOptions } from '../analysis/analyze.js';
import type { QuarantinedLine } from '../analysis/load.js';
import type { Analysis } from '../analysis/report-model.js';
import { writeHtmlReport } from './html.js';
import { renderJson } from './json.js';
import { renderMarkdown } from './markdown.js';
import { reconciliation } from './findings.js';
import { readConversation } from './session-conversation.js';
import { renderTerminal } from './terminal.js';
import type { SessionView } from '../analysis/session-view.js';

export type ReportFormat = 'terminal' | 'json' | 'md' | 'html';

export interface ReportOptions extends AnalyzeOptions {
  format?: ReportFormat;
  /** Directory for index.html when format is 'html'. */
  htmlDir?: string;
  /** Colour in terminal output (the CLI passes TTY && !NO_COLOR). */
  color?: boolean;
  /** A `run --record` directory: each session view shows its conversation from it. */
  recording?: string;
  /** Wrap lines of text to the terminal width (the CLI passes TTY: a pipe or a file gets whole lines). Default true. */
  wrap?: boolean;
}

export interface ReportOutput {
  /** What to print: the rendered report, or for html a short note with the file path. */
  text: string;
  quarantined: QuarantinedLine[];
  linesRead: number;
  eventsUsed: number;
  htmlPath: string | null;
  analysis: Analysis;
}

export async function reportForFiles(paths: string[], options: ReportOptions = {}): Promise<ReportOutput> {
  const analysis = await analyzeTraces(paths, options);
  return renderReport(analysis, options);
}

export async function renderReport(analysis: Analysis, options: ReportOptions = {}): Promise<ReportOutput> {
  const format = options.format ?? 'terminal';
  let text: string;
  let htmlPath: string | null = null;
  if (format === 'json') text = renderJson(analysis);
  else if (format === 'md') text = renderMarkdown(analysis);
  else if (format === 'html') {
    if (options.recording !== undefined) attachConversations(analysis.sessions ?? [], options.recording);
    htmlPath = await writeHtmlReport(analysis, options.htmlDir ?? 'reports');
    text = `wrote ${htmlPath}\n${reconciliation(analysis)}\n`;
  } else text = renderTerminal(analysis, { color: options.color ?? false, wrap: options.wrap ?? true });
  const { load } = analysis;
  return { text, quarantined: load.quarantined, linesRead: load.linesRead, eventsUsed: load.eventsUsed, htmlPath, analysis };
}

/** Each session's conversation from a `run --record` directory, where it holds one; returns how many were found. */
export function attachConversations(views: SessionView[], recording: string): number {
  let found = 0;
  for (const view of views) {
    const parts = readConversation(recording, view.facts.task_id, view.facts.repeat);
    if (parts) {
      view.conversation = parts;
      found++;
    }
  }
  return found;
}
