/** One session as the session view shows it (session-view.ts fills it; the report model carries it). */
import type { Row } from './duck.js';

export interface SessionView {
  run_id: string;
  session_id: string;
  facts: Row;
  model: Row[];
  calls: Row[];
  marks: Row[];
  permissions: Row[];
  expectations: Row[];
  /** The conversation, when the run was recorded and the report was pointed at the recording (filled by the report layer). */
  conversation?: { role: string; kind: string; text: string; error?: boolean }[];
}
