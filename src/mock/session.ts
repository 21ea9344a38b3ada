/**
 * A registered mock conversation: its script, its wire, every request it got,
 * and how many attempts each turn has had (so a fault with `times` fires on the
 * first attempts only). Mount-neutral: msw and the loopback server route to
 * `handle()` and carry out its transport plan.
 */
import type { DecodedRequest } from './decoded-request.js';
import { NO_TRANSPORT_FAULT, type TransportPlan } from './fault-reply.js';
import { respond } from './respond.js';
import type { ModelScript } from './script.js';
import { wireError, type HttpReply, type Wire } from './wire-errors.js';

export interface RecordedRequest {
  /** HTTP status the mock answered with. */
  status: number;
  /** 1-based turn the request asked for (null when the body could not be decoded). */
  turn: number | null;
  request: DecodedRequest | null;
  /** UTF-8 size of the body as received (to check what adapters report in describeRequest). */
  bodyBytes: number;
  /** 1-based attempt at this turn. */
  attempt: number;
  /** When the body had arrived (performance.now() ms), to measure back-off between attempts. */
  receivedAt: number;
}

/** What a mount sends: the reply and what to do on the connection. */
export interface MockAnswer {
  reply: HttpReply;
  transport: TransportPlan;
}

/** Test-only escape hatch: answer the next request with this status. The per-turn fault catalogue is issue 5. */
export interface InjectedFailure {
  status: number;
  headers?: Record<string, string>;
  message?: string;
}

export class MockSession {
  readonly requests: RecordedRequest[] = [];
  private readonly failures: InjectedFailure[] = [];
  private readonly attempts = new Map<number, number>();

  constructor(
    readonly id: string,
    readonly wire: Wire,
    readonly script: ModelScript,
    private readonly now: () => number = Date.now,
  ) {}

  failNext(failure: InjectedFailure): void {
    this.failures.push(failure);
  }

  handle(bodyText: string): MockAnswer {
    const nextAttempt = (turn: number): number => {
      const attempt = (this.attempts.get(turn) ?? 0) + 1;
      this.attempts.set(turn, attempt);
      return attempt;
    };
    const out = respond({ wire: this.wire, bodyText, script: this.script, sessionId: this.id, now: this.now, nextAttempt });
    const failure = this.failures.shift();
    const answer: MockAnswer = failure
      ? { reply: wireError(this.wire, failure.status, failure.message ?? `injected mock failure (HTTP ${failure.status})`, failure.headers), transport: NO_TRANSPORT_FAULT }
      : { reply: out.reply, transport: out.transport };
    const bodyBytes = Buffer.byteLength(bodyText, 'utf8');
    this.requests.push({ status: answer.reply.status, turn: out.turn, request: out.request, bodyBytes, attempt: out.attempt, receivedAt: performance.now() });
    return answer;
  }
}
