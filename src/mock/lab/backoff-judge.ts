/**
 * Whether hintless retries backed off, judged against what the same harness
 * does when the server says it may retry at once (docs/lab-checks.md#no_backoff).
 *
 * Why a calibration: the time from a failure to the retry is the harness's
 * error path (parse the error, rebuild the request, maybe log) plus any
 * deliberate wait. The error path alone costs a harness several of its normal
 * turnarounds, and on a loaded machine it swings by a factor of two or more,
 * so no factor of the turnaround tells an immediate retry from a short
 * back-off. A retry after a 429 whose hint asks for ~1 ms (retry-after-ms: 1,
 * honoured by the OpenAI and Anthropic SDKs and the AI SDK; Gemini's
 * RetryInfo) is that error path measured, at the load of the moment: the
 * task asks for such retries before and after the hintless ones.
 */

/** A hint this short asks for a retry at once: the retry that follows measures the harness's error path. */
export const AT_ONCE_HINT_MS = 10;
/**
 * Retries told they may come at once that took more than this many times the
 * harness's median turnaround waited on purpose (the harness ignores the hint):
 * they measure its back-off, not its error path, and cannot calibrate. An
 * immediate retry's error path has cost faultline's own harness 4-6 of its
 * turnarounds on an idle machine, 1-2.5 under load.
 */
export const AT_ONCE_OVER_TURNAROUND = 10;
/**
 * What timers and the socket blur (retry_after_ignored allows the same): on an
 * idle machine an immediate retry and its at-once calibration take 0-30 ms,
 * and a few ms of jitter there is not a wait.
 */
export const RESOLUTION_MS = 20;

export type BackoffJudgement =
  | { judged: false; why: string }
  | { judged: true; backedOff: boolean; reason: string };

/** The gap from a failed answer to the retry, and which attempt the retry was (2 = the first retry). */
export interface RetryGap {
  attempt: number;
  gap: number;
}

const ms = (n: number) => `${Math.round(n)} ms`;
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Whether the session's retries wait longer at the second retry than at the
 * first, beyond the noise: the waits before third attempts are the longer in
 * at least 75% of the (second, third) pairs, their medians grow by 1.3x (an
 * exponential back-off doubles; with 25% jitter at least 1.5x) and by more
 * than twice the median deviation of the waits before second attempts, two of
 * the harness's median turnarounds and twice RESOLUTION_MS (faultline's own
 * harness with no delay has taken 25 ms more on its third attempts than on its
 * second: a cost of its error path, not a wait). Or they double: the third is
 * the longer in at least 90% of the pairs, the medians grow by 1.6x and by
 * more than the same, with one turnaround instead of two. The turnaround grows
 * with the machine's load and a harness's own schedule does not: in a CI run
 * Claude Code 2.1.328's 540-664 ms, then 1,059-1,209 ms (28 of 28 pairs, 1.9x)
 * grew by 531 ms against two turnarounds of 273 ms; an immediate retry's error
 * path, which the turnaround stands for, does not grow 1.6x in nine pairs of
 * ten. Pairs and the median deviation, not every wait against every other and
 * their whole spread: on a loaded machine one second-attempt wait delayed by
 * the scheduler (Claude Code at load 5: 565-689 ms, and once 1,324 ms, then
 * 1,150-1,378 ms) hid a clear doubling. All retries count, those told they
 * may come at once too: a harness that ignores a 1 ms hint (Claude Code) shows
 * its own schedule there. Null when either attempt has too few retries.
 */
export function growth(retries: RetryGap[], turnaround: number | null): { grows: boolean; reason: string } | null {
  const second = retries.filter((r) => r.attempt === 2).map((r) => r.gap);
  const third = retries.filter((r) => r.attempt === 3).map((r) => r.gap);
  if (second.length < 2 || third.length === 0) return null;
  const m2 = median(second);
  const m3 = median(third);
  const deviation = median(second.map((g) => Math.abs(g - m2)));
  const floor = (turnarounds: number) => Math.max(2 * deviation, turnarounds * (turnaround ?? 0), 2 * RESOLUTION_MS);
  const longer = third.reduce((n, t) => n + second.filter((g) => t > g).length, 0);
  const pairs = second.length * third.length;
  const meets = (rule: GrowthRule) => longer >= rule.pairs * pairs && m3 >= rule.factor * m2 && m3 - m2 > floor(rule.turnarounds);
  const grows = GROWTH_RULES.some(meets);
  const rules = GROWTH_RULES.map((rule) => `${rule.name}: ${rule.pairs * 100}% of the pairs, ${rule.factor}x and more than ${ms(floor(rule.turnarounds))}`).join('; ');
  const reason =
    `the waits before second attempts (${second.map(ms).join(', ')}; median ${ms(m2)}) ${grows ? '' : 'do not '}grow to those before third attempts (${third.map(ms).join(', ')}; median ${ms(m3)}): ` +
    `longer in ${longer} of ${pairs} pairs, ${(m3 / m2).toFixed(2)}x the median, ${m3 >= m2 ? `${ms(m3 - m2)} more` : `${ms(m2 - m3)} less`} (${rules}; more than twice the second waits' median deviation, the turnarounds and ${2 * RESOLUTION_MS} ms)`;
  return { grows, reason };
}

interface GrowthRule {
  name: string;
  /** Share of (second, third) wait pairs in which the third is the longer: most, not all (one delayed wait). */
  pairs: number;
  /** Growth of the medians from the first retry to the second. */
  factor: number;
  /** Median turnarounds the growth must exceed. */
  turnarounds: number;
}

const GROWTH_RULES: readonly GrowthRule[] = [
  { name: 'grows', pairs: 0.75, factor: 1.3, turnarounds: 2 },
  { name: 'doubles', pairs: 0.9, factor: 1.6, turnarounds: 1 },
];

/**
 * `waits`: the gaps before the hintless retries of one turn, in attempt order.
 * `atOnce`: the gaps before retries whose hint asked for at most
 * AT_ONCE_HINT_MS, less that hint, anywhere in the session (`cold`: the one
 * after the session's first failure, left out of `atOnce` and only printed). `all`: every
 * retry of the session with its attempt number. `turnaround`: the harness's
 * median turnaround on a whole answer (null when none).
 *
 * What an immediate retry costs at this load is the median at-once retry, and
 * no less than RESOLUTION_MS and the harness's median turnaround (its error path costs it about
 * one turnaround or more; on at-once retries of a few ms, a single scheduling
 * delay of 100 ms in a hintless one would otherwise read as a wait). Medians,
 * so one slow at-once retry (opencode 1.18.33 took 1.9 s for one, 0-191 ms for
 * the others) cannot make a real back-off read as none. Backed off when the
 * hintless waits, in all, exceed (n + 1) times that cost: beyond what n
 * immediate retries take, at least one more. The sum, so that an SDK's
 * 0.5 s + 1 s back-off shows through an error path slowed to a few hundred ms.
 * Or backed off when the session's waits grow with the attempt number (see
 * growth()). A session has three hintless turns (lab-overloaded-then-success):
 * a bug hides only if all three escape.
 */
export function judgeBackoff(waits: number[], atOnce: number[], turnaround: number | null, all: RetryGap[] = [], cold: number | null = null): BackoffJudgement {
  if (waits.length === 0) return { judged: false, why: 'no hintless retry' };
  if (atOnce.length === 0) return { judged: false, why: 'no retry told it may come at once to compare with' };
  const typical = median(atOnce);
  const fastest = Math.min(...atOnce);
  if (turnaround !== null && fastest > AT_ONCE_OVER_TURNAROUND * turnaround) {
    const waitsOnItsOwn = `even told to retry at once the harness waited ${atOnce.map(ms).join(', ')} (over ${AT_ONCE_OVER_TURNAROUND}x its median turnaround of ${ms(turnaround)}): it waits on its own, so an immediate retry's cost cannot be measured`;
    // Growth needs no calibration: a harness that ignores the hint and doubles its own wait (Gemini CLI 0.61.0 sleeps
    // 3.7-5.9 s, then 10.4-11.2 s, whatever the hint) shows its back-off there, and is judged by it.
    const grew = growth(all, turnaround);
    if (grew?.grows) return { judged: true, backedOff: true, reason: `retries with no server hint waited ${waits.map(ms).join(', ')}; ${waitsOnItsOwn}; but ${grew.reason}` };
    return { judged: false, why: waitsOnItsOwn };
  }
  const cost = Math.max(typical, turnaround ?? 0, RESOLUTION_MS);
  const total = waits.reduce((a, b) => a + b, 0);
  const times = waits.length + 1;
  const bound = times * cost;
  const beyond = total > bound;
  const measured =
    `retries with no server hint waited ${waits.map(ms).join(', ')} (${ms(total)} in all); ` +
    `retries of the same harness told they may come at once (retry-after-ms: 1) waited ${atOnce.map(ms).join(', ')} in this session${cold === null ? '' : ` (and ${ms(cold)} after the session's first failure, left out: its error path ran cold)`}` +
    `${turnaround === null ? '' : `, and its median turnaround on a whole answer was ${ms(turnaround)}`}`;
  const against = `${times}x the largest of the median at-once retry, that turnaround and ${RESOLUTION_MS} ms for timers (${times} x ${ms(cost)} = ${ms(bound)})`;
  if (beyond) return { judged: true, backedOff: true, reason: `${measured}: more than ${against}` };
  const grew = growth(all, turnaround);
  if (grew?.grows) return { judged: true, backedOff: true, reason: `${measured}: not more than ${against}, but ${grew.reason}` };
  const verdict = `not more than ${against}: no longer than ${waits.length} immediate retr${waits.length === 1 ? 'y' : 'ies'} and one more can take at this load${grew ? `; and ${grew.reason}` : ''}`;
  return { judged: true, backedOff: false, reason: `${measured}: ${verdict}` };
}
