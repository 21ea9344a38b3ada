/** Every conformance check over one lab session, in catalog order, with its tally (looked at, violations). */
import type { ConformanceCheck } from '../../events/labels.js';
import { CHECK_IDS } from './catalog.js';
import type { CheckTally } from './check-result.js';
import { historyChecks } from './checks-history.js';
import { livenessChecks } from './checks-liveness.js';
import { pairingChecks } from './checks-pairing.js';
import { prefixChecks } from './checks-prefix.js';
import { resultChecks } from './checks-results.js';
import { retryChecks } from './checks-retries.js';
import { schemaChecks } from './checks-schema.js';
import type { SessionView } from './session-view.js';

export function runChecks(view: SessionView): CheckTally[] {
  const tallies = [...pairingChecks(view), ...prefixChecks(view), ...schemaChecks(view), ...resultChecks(view), ...retryChecks(view), ...historyChecks(view), ...livenessChecks(view)];
  const byId = new Map<ConformanceCheck, CheckTally>(tallies.map((t) => [t.check, t]));
  const missing = CHECK_IDS.filter((id) => !byId.has(id));
  // A check in the catalog that no module runs would silently read as "not exercised".
  if (missing.length > 0) throw new Error(`conformance checks without an implementation: ${missing.join(', ')}`);
  return CHECK_IDS.map((id) => byId.get(id) as CheckTally);
}
