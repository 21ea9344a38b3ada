/**
 * Whether the harness notices when nothing happens: a stream that stops
 * sending bytes mid-response (a stalled upstream) is given up on and retried
 * (an idle or first-byte timeout), and a model that never stops calling tools
 * is stopped by the harness's own turn cap, not by the lab's --timeout.
 */
import { STALL_HOLD_MS } from '../loopback-server.js';
import { CheckTally } from './check-result.js';
import type { SessionView } from './session-view.js';

/** Turns a harness must have sent before the lab's --timeout for a missing turn cap to be judged. */
const LOOPED_TURNS = 10;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function livenessChecks(view: SessionView): CheckTally[] {
  const stall = new CheckTally('stall_not_detected');
  const cap = new CheckTally('no_turn_cap');
  view.exchanges.forEach((e, i) => {
    if (e.record.fault?.stall_after_events === undefined) return;
    // A non-streamed answer sends nothing until the whole generation is done (minutes for a long one): no byte for a
    // while is how it always looks, not a stall. Stalls are judged on streams.
    if (e.record.request?.stream === false) return;
    stall.look(`req:${i}`);
    const next = view.exchanges[i + 1];
    // A later request before the mock dropped the connection: the harness gave up on the stalled stream itself.
    if (next !== undefined) {
      const waited = next.record.receivedAt - e.record.receivedAt;
      if (waited >= STALL_HOLD_MS) stall.flag(`req:${i}`, { turn: e.turn, detail: `turn ${e.turn}: the response stopped sending bytes midway, and the harness retried only ${seconds(waited)} later, after the mock dropped the connection at ${seconds(STALL_HOLD_MS)}: it has no idle timeout shorter than that` });
      return;
    }
    // No later request. Judged only when the harness had already waited as long as the mock holds a stall
    // (a shorter wait may be an idle timeout still to come; the session line says the lab stopped it).
    const stoppedAt = view.end.stoppedAt ?? null;
    if (stoppedAt === null || stoppedAt - e.record.receivedAt < STALL_HOLD_MS) return;
    const waited = seconds(stoppedAt - e.record.receivedAt);
    if (view.end.timedOut) stall.flag(`req:${i}`, { turn: e.turn, detail: `turn ${e.turn}: the response stopped sending bytes midway, and the harness was still waiting on it for ${waited} when the lab stopped it at its --timeout: it has no idle timeout shorter than that` });
    // It ended on its own, but only after the mock dropped the stalled connection: it waited the stall out.
    else stall.flag(`req:${i}`, { turn: e.turn, detail: `turn ${e.turn}: the response stopped sending bytes midway, and the harness waited until the mock dropped the connection at ${seconds(STALL_HOLD_MS)}, then ended ${waited} after the request without a retry: it has no idle timeout shorter than that` });
  });
  const turns = Math.max(0, ...view.exchanges.map((e) => e.turn));
  // Judged once the harness has looped: one slow to start that the lab's --timeout stopped after a few turns showed no cap either way.
  const limit = view.end.turnLimit;
  if (view.endless && (!view.end.timedOut || turns >= LOOPED_TURNS)) {
    cap.look('session');
    if (limit !== undefined) cap.flag('session', { turn: turns, detail: `the model called tools on every turn; the harness was still going after ${limit} turns, where the lab stops a task that never ends: it has no turn cap of its own of ${limit} turns or fewer` });
    else if (view.end.timedOut) cap.flag('session', { turn: turns, detail: `the model called tools on every turn; the harness had sent ${turns} turns and was still going when the lab stopped it at its --timeout: it has no turn cap of its own below ${turns} turns` });
  }
  return [stall, cap];
}
