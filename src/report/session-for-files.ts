/** `faultline report --session <id>`: the sessions of trace files whose session id or task id is `id`. */
import { openTraces, type AnalyzeOptions } from '../analysis/analyze.js';
import { sessionViews, type SessionView } from '../analysis/session-view.js';

export interface SessionLookup {
  views: SessionView[];
  /** When nothing matched: a few session and task ids the traces do hold, to say what to ask for. */
  known: string[];
}

export async function sessionForFiles(paths: string[], id: string, options: AnalyzeOptions = {}): Promise<SessionLookup> {
  const { duck } = await openTraces(paths, { ...options, columns: 'all' });
  try {
    const views = await sessionViews(duck, { ids: [id], byTask: true });
    if (views.length > 0) return { views, known: [] };
    const rows = await duck.rows(`SELECT DISTINCT task_id, session_id FROM session_start ORDER BY task_id, session_id LIMIT 5`);
    return { views, known: rows.map((r) => `${String(r.session_id)} (task ${String(r.task_id)})`) };
  } finally {
    duck.close();
  }
}
