/**
 * What cached rows depend on besides the trace itself: the contract (the
 * JSON Schema every line is checked against), the stored columns and their
 * types, the faultline version and the cache format. An entry written under
 * another fingerprint is read afresh and replaced.
 */
import { createHash } from 'node:crypto';
import type { Column } from '../../events/columns.js';
import { eventJsonSchema } from '../../events/schema-nodes.js';
import { EVENT_NAMES } from '../../events/schemas.js';
import { FAULTLINE_VERSION } from '../../version.js';
import { sqlType } from '../columns-sql.js';
import { CACHE_FORMAT } from './manifest.js';

export function rowsFingerprint(keep: Column[]): string {
  const h = createHash('sha256');
  h.update(JSON.stringify({ format: CACHE_FORMAT, version: FAULTLINE_VERSION, columns: keep.map((c) => [c.name, sqlType(c)]) }));
  for (const e of EVENT_NAMES) h.update(JSON.stringify(eventJsonSchema(e)));
  return h.digest('hex').slice(0, 32);
}
