/**
 * Retries, read from the attempts at each turn (docs/harness-rules.md): the server's
 * retry-after(-ms) is honoured, a 4xx that a retry cannot fix is not sent
 * again unchanged, attempts are bounded, a retry without a hint backs off, and
 * a transient failure (429, 5xx, 529, reset, broken stream) is retried.
 */
import { parseRetryAfterMs } from '../../providers/retry-after.js';
import { AT_ONCE_HINT_MS, judgeBackoff, type RetryGap } from './backoff-judge.js';
import { MAX_ATTEMPTS } from './catalog.js';
import { CheckTally } from './check-result.js';
import { answeredWhole, turnarounds, type Exchange, type SessionView } from './session-view.js';

const NEVER_RETRY = new Set([400, 401, 403, 404, 413]);
const TRANSIENT = new Set([408, 409, 429, 500, 502, 503, 504, 529]);

function failed(e: Exchange): boolean {
  return !answeredWhole(e.record);
}

function transient(e: Exchange): boolean {
  return failed(e) && (TRANSIENT.has(e.record.status) || e.record.status === 200);
}

function hintMs(e: Exchange): number | null {
  const headers = e.record.fault?.headers;
  if (!headers) return null;
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return parseRetryAfterMs({ get: (name) => lower.get(name) ?? null });
}

/** The median of the harness's turnarounds on a whole answer (a load spike in one of them moves it little). */
function turnaround(view: SessionView): number | null {
  const gaps = turnarounds(view).sort((a, b) => a - b);
  if (gaps.length === 0) return null;
  const mid = Math.floor(gaps.length / 2);
  return gaps.length % 2 === 1 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
}

export function retryChecks(view: SessionView): CheckTally[] {
  const ignored = new CheckTally('retry_after_ignored');
  const client = new CheckTally('client_error_retried');
  const unbounded = new CheckTally('unbounded_retries');
  const noBackoff = new CheckTally('no_backoff');
  const notRetried = new CheckTally('transient_not_retried');
  const base = turnaround(view);
  // The gaps before hintless retries, by turn; and before retries told they may come at once, less the hint.
  const hintless = new Map<number, number[]>();
  const atOnce: number[] = [];
  const all: RetryGap[] = [];
  // The retry after the session's first failure runs error-path code the process never ran before (loading,
  // compiling): at load it has cost faultline's own harness 650 ms against 0-45 ms for the later ones. Kept apart.
  let cold: number | null = null;
  let seenFailure = false;
  const byTurn = new Map<number, Exchange[]>();
  for (const e of view.exchanges) if (e.turn > 0) byTurn.set(e.turn, [...(byTurn.get(e.turn) ?? []), e]);
  for (const [turn, attempts] of byTurn) {
    if (attempts.some(failed)) {
      unbounded.look(`turn:${turn}`);
      if (attempts.length > MAX_ATTEMPTS) unbounded.flag(`turn:${turn}`, { turn, detail: `turn ${turn}: ${attempts.length} attempts at one turn (more than ${MAX_ATTEMPTS})${view.end.timedOut ? ', still retrying when the lab stopped the harness at its --timeout' : ''}` });
    }
    attempts.forEach((a, i) => {
      if (!failed(a)) return;
      const b = attempts[i + 1];
      const key = `${turn}:${i}`;
      if (NEVER_RETRY.has(a.record.status)) {
        client.look(key);
        if (b && b.record.bodyText === a.record.bodyText) client.flag(key, { turn, detail: `turn ${turn}: the request that got HTTP ${a.record.status} was sent again unchanged` });
        return;
      }
      if (!transient(a)) return;
      if (!b) {
        // Stopped by the lab's timeout, the harness may only have been waiting to retry.
        if (view.end.timedOut) return;
        notRetried.look(key);
        if (i === 0) notRetried.flag(key, { turn, detail: `turn ${turn}: the harness gave up after one ${a.record.status === 200 ? 'broken stream or reset' : `HTTP ${a.record.status}`} without a retry` });
        return;
      }
      notRetried.look(key);
      const gap = b.record.receivedAt - (a.record.answeredAt ?? a.record.receivedAt);
      const hint = hintMs(a);
      all.push({ attempt: i + 2, gap: Math.max(0, gap - (hint ?? 0)) });
      const first = !seenFailure;
      seenFailure = true;
      if (hint !== null && hint <= 60_000) {
        ignored.look(key);
        // 10% and 20 ms of slack for timers and the socket.
        if (gap < hint * 0.9 - 20) ignored.flag(key, { turn, detail: `turn ${turn}: attempt ${i + 2} came ${Math.round(gap)} ms after the HTTP ${a.record.status} answer, although that answer's retry hint asked for ${hint} ms` });
        if (hint <= AT_ONCE_HINT_MS) {
          if (!first) atOnce.push(Math.max(0, gap - hint));
          else cold = Math.max(0, gap - hint);
        }
      } else hintless.set(turn, [...(hintless.get(turn) ?? []), gap]);
    });
  }
  // Judged once every attempt is read: the retries told they may come at once, before and after the hintless ones,
  // are what an immediate retry costs this harness at this load.
  for (const [turn, waits] of hintless) {
    const judgement = judgeBackoff(waits, cold !== null && atOnce.length === 0 ? [cold] : atOnce, base, all, atOnce.length > 0 ? cold : null);
    if (!judgement.judged) continue;
    noBackoff.look(`turn:${turn}`);
    if (!judgement.backedOff) noBackoff.flag(`turn:${turn}`, { turn, detail: `turn ${turn}: ${judgement.reason}` });
  }
  return [ignored, client, unbounded, noBackoff, notRetried];
}
