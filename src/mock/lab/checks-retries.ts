/**
 * Retries, read from the attempts at each turn (docs/harness-rules.md): the server's
 * retry-after(-ms) is honoured, a 4xx that a retry cannot fix is not sent
 * again unchanged, attempts are bounded, a retry without a hint backs off, and
 * a transient failure (429, 5xx, 529, reset, broken stream) is retried.
 */
import { parseRetryAfterMs } from '../../providers/retry-after.js';
import { BACKOFF_OVER_TURNAROUND, MAX_ATTEMPTS } from './catalog.js';

/** Waits that grow at least this much from the first hintless retry to the last are a back-off (exponential doubles; with 25% jitter, at least 1.5x). */
const GROWTH = 1.3;
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

/** The shortest of the harness's turnarounds: a retry without back-off takes less; any deliberate delay adds to it. */
function turnaround(view: SessionView): number | null {
  const gaps = turnarounds(view);
  return gaps.length === 0 ? null : Math.min(...gaps);
}

export function retryChecks(view: SessionView): CheckTally[] {
  const ignored = new CheckTally('retry_after_ignored');
  const client = new CheckTally('client_error_retried');
  const unbounded = new CheckTally('unbounded_retries');
  const noBackoff = new CheckTally('no_backoff');
  const notRetried = new CheckTally('transient_not_retried');
  const base = turnaround(view);
  const hintless: Array<{ turn: number; attempt: number; gap: number }> = [];
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
      if (hint !== null && hint <= 60_000) {
        ignored.look(key);
        // 10% and 20 ms of slack for timers and the socket.
        if (gap < hint * 0.9 - 20) ignored.flag(key, { turn, detail: `turn ${turn}: attempt ${i + 2} came ${Math.round(gap)} ms after the HTTP ${a.record.status} answer, although that answer's retry hint asked for ${hint} ms` });
      } else hintless.push({ turn, attempt: i + 2, gap });
    });
    // Hintless retries of one turn back off when the wait grows with the attempt number (every real client's
    // exponential back-off), or one of them waited longer than the harness takes to turn a whole answer around.
    // Growth counts when it is more than noise: the last wait is at least half the harness's turnaround (a few ms doubling is not a back-off).
    const first = hintless[0]?.gap ?? 0;
    const last = hintless[hintless.length - 1]?.gap ?? 0;
    const grows = hintless.length >= 2 && base !== null && last >= GROWTH * first && last >= base / 2;
    // Every wait beyond the turnaround (the shortest one: a single spike on a loaded machine is not a back-off).
    const shortest = Math.min(...hintless.map((h) => h.gap));
    const beyond = base !== null && shortest > base * BACKOFF_OVER_TURNAROUND;
    // Without a whole answer to compare with, a steady wait cannot be told from an immediate retry: not judged.
    // One retry alone says nothing on a loaded machine (its wait against one turnaround): judged from two on, by the attempt number.
    if (hintless.length >= 2 && base !== null) {
      noBackoff.look(`turn:${turn}`);
      if (!grows && !beyond) {
        const gaps = hintless.map((h) => `attempt ${h.attempt} after ${Math.round(h.gap)} ms`).join(', ');
        const against = `the shortest wait is not beyond ${BACKOFF_OVER_TURNAROUND}x the harness's own turnaround on a whole answer in this session (${Math.round(base)} ms)`;
        const growth = `, and not growing with the attempt number (under ${GROWTH}x from the first retry to the last)`;
        noBackoff.flag(`turn:${turn}`, { turn, detail: `turn ${turn}: retried with no server hint (${gaps}): ${against}${growth}` });
      }
    }
    hintless.length = 0;
  }
  return [ignored, client, unbounded, noBackoff, notRetried];
}
