/**
 * The report's header, shared by every renderer: which inputs were read
 * (with their lines and run ids), and per run
 * its id, suites, provider, model and dates (the `run_identity` section).
 */
import type { Row } from '../analysis/duck.js';
import { findSection, type Analysis, type InputFile } from '../analysis/report-model.js';
import { inputFacts } from './input-header.js';
import { plural } from './plural.js';

export interface RunIdentity {
  runId: string;
  suites: string[];
  /** The suite list was cut where the trace stores it (run_start.suite is capped). */
  suitesCut: boolean;
  provider: string | null;
  model: string | null;
  /** Wires and models the model_request events name, when they differ from provider and model. */
  requestProviders: string | null;
  requestModels: string | null;
  /** What answered the sessions (memory, http, live, replay), as session_start records it; null when none did. */
  transports: string | null;
  started: string | null;
  ended: string | null;
}

export interface ReportHeader {
  runs: RunIdentity[];
  /** Runs in the inputs (the header lists the first ones). */
  runCount: number;
  sessions: number;
  events: number;
  /** Every input file with its lines and run ids. */
  inputs: InputFile[];
}

/** run_start.suite's cap: a list this long was cut by the writer. */
const SUITE_FIELD_MAX = 512;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);

function identity(row: Row): RunIdentity {
  const suite = str(row.suite);
  const provider = str(row.provider);
  const model = str(row.model);
  const requestProviders = str(row.request_providers);
  const requestModels = str(row.request_models);
  return {
    runId: String(row.run_id),
    suites: suite === null ? [] : suite.split(',').map((s) => s.trim()).filter((s) => s !== ''),
    suitesCut: suite !== null && suite.length >= SUITE_FIELD_MAX,
    provider,
    model,
    requestProviders: requestProviders === provider ? null : requestProviders,
    requestModels: requestModels === model ? null : requestModels,
    transports: str(row.transports),
    started: str(row.started),
    ended: str(row.ended),
  };
}

export function reportHeader(analysis: Analysis): ReportHeader {
  const runs = (findSection(analysis, 'run_identity')?.rows ?? []).map(identity);
  const summary = findSection(analysis, 'run_summary')?.rows[0];
  const sessions = findSection(analysis, 'session_summary')?.rows[0];
  return {
    runs,
    runCount: typeof summary?.runs === 'number' ? summary.runs : runs.length,
    sessions: typeof sessions?.sessions_started === 'number' ? sessions.sessions_started : 0,
    events: analysis.load.eventsUsed,
    inputs: analysis.inputs,
  };
}

/** `2026-12-04 02:48:11 → 02:48:36 UTC` (the date once when both are on one day). */
export function dateRange(run: Pick<RunIdentity, 'started' | 'ended'>): string | null {
  const { started, ended } = run;
  if (started === null) return null;
  if (ended === null || ended === started) return started;
  const [day, , zone] = started.split(' ');
  const [endDay, endTime] = ended.split(' ');
  return endDay === day ? `${started.replace(/ UTC$/, '')} → ${endTime} ${zone ?? ''}`.trimEnd() : `${started.replace(/ UTC$/, '')} → ${ended}`;
}

/** `demo, faults-loop, … (20 suites)`: the first names that fit `max` characters, and how many there are. */
export function suitesText(run: Pick<RunIdentity, 'suites' | 'suitesCut'>, max: number): string {
  const { suites } = run;
  if (suites.length === 0) return 'no suite named';
  const count = run.suitesCut ? `${suites.length - 1}+ suites` : plural(suites.length, 'suite');
  const shown: string[] = [];
  for (const name of suites) {
    const next = [...shown, name].join(', ');
    if (next.length + count.length + 6 > max && shown.length > 0) break;
    shown.push(name);
  }
  const all = shown.length === suites.length && !run.suitesCut;
  return all ? shown.join(', ') : `${shown.join(', ')}, … (${count})`;
}

/** `provider mock · model mock-scripted · requests: anthropic, openai (mock-claude, mock-gpt) · transport http, memory`. */
export function providerText(run: RunIdentity): string {
  const parts = [`provider ${run.provider ?? '—'}`, `model ${run.model ?? '—'}`];
  if (run.requestProviders !== null || run.requestModels !== null) {
    parts.push(`requests: ${run.requestProviders ?? run.provider ?? '—'}${run.requestModels ? ` (${run.requestModels})` : ''}`);
  }
  if (run.transports !== null) parts.push(`transport ${run.transports}`);
  return parts.join(' · ');
}

/** `1 run · 95 sessions · 2592 events · 1 input`. */
export function countsText(header: ReportHeader): string {
  return [plural(header.runCount, 'run'), plural(header.sessions, 'session'), plural(header.events, 'event'), plural(header.inputs.length, 'input')].join(' · ');
}

/** `/x/run.jsonl · 2592 lines · run 2026…`, `/x/empty.jsonl · empty` or `/x/junk.jsonl · 3 lines · no valid event`. */
export function inputText(input: InputFile): string {
  return [input.path, ...inputFacts(input)].join(' · ');
}
