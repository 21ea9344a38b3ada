/**
 * The view of single sessions (sql/session_view.sql): for the sessions a
 * report row names, or those `report --session <id>` asks for, their model
 * calls, tool calls, marks, permission decisions and expectations, each
 * with times from the session's start. Sessions are picked by session id or
 * task id; a session is still (run_id, session_id), so one id found in two
 * runs is two sessions.
 */
import { readFileSync } from 'node:fs';
import { sqlString, type Duck, type Row } from './duck.js';
import type { ReportResult } from './report-model.js';
import type { SessionView } from './session-view-model.js';
import { parseSections, parseTables } from './reports.js';

export const SESSION_VIEW_SQL = readFileSync(new URL('./sql/session_view.sql', import.meta.url), 'utf8');

export type { SessionView } from './session-view-model.js';

/** What `pick` matches: session ids (as a report row names them) or task ids too (`--session <id>` takes either). */
export interface SessionPick {
  ids: readonly string[];
  byTask?: boolean;
}

/** At most this many sessions are viewed at once (a report links its first rows; --session one id). */
export const MAX_VIEWED_SESSIONS = 100;

export async function sessionViews(duck: Duck, pick: SessionPick): Promise<SessionView[]> {
  if (pick.ids.length === 0) return [];
  const list = [...new Set(pick.ids)].map(sqlString).join(', ');
  const where = pick.byTask ? `session_id IN (${list}) OR task_id IN (${list})` : `session_id IN (${list})`;
  await duck.exec(`CREATE OR REPLACE TEMP TABLE view_sessions AS SELECT DISTINCT run_id, session_id FROM session_start WHERE ${where} ORDER BY run_id, session_id LIMIT ${MAX_VIEWED_SESSIONS}`);
  const tables = parseTables(SESSION_VIEW_SQL);
  try {
    for (const t of tables) await duck.exec(`CREATE OR REPLACE TEMP TABLE "${t.name}" AS ${t.sql}`);
    const sections = new Map<string, Row[]>();
    for (const s of parseSections(SESSION_VIEW_SQL)) sections.set(s.id, await duck.rows(s.sql));
    const of = (id: string, run: string, session: string) => (sections.get(id) ?? []).filter((r) => r.run_id === run && r.session_id === session);
    return (sections.get('facts') ?? []).map((facts) => {
      const run = String(facts.run_id);
      const session = String(facts.session_id);
      return { run_id: run, session_id: session, facts, model: of('model', run, session), calls: of('calls', run, session), marks: of('marks', run, session), permissions: of('permissions', run, session), expectations: of('expectations', run, session) };
    });
  } finally {
    for (const t of [...tables, { name: 'view_sessions' }]) await duck.exec(`DROP TABLE IF EXISTS "${t.name}"`);
  }
}

/** Session ids named by any report row (a `session_id` column), in report order. */
export function linkedSessionIds(reports: readonly ReportResult[]): string[] {
  const ids = new Set<string>();
  for (const r of reports) for (const s of r.sections) if (s.columns.includes('session_id')) for (const row of s.rows) if (typeof row.session_id === 'string') ids.add(row.session_id);
  return [...ids].slice(0, MAX_VIEWED_SESSIONS);
}
