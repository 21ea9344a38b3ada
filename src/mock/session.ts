/**
 * A registered mock conversation: its script, its wire, every request it got.
 * Mount-neutral: msw (and later the loopback server) route to `handle()`.
 */
import type { DecodedRequest } from './decoded-request.js';
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

  constructor(
    readonly id: string,
    readonly wire: Wire,
    readonly script: ModelScript,
    private readonly now: () => number = Date.now,
  ) {}

  failNext(failure: InjectedFailure): void {
    this.failures.push(failure);
  }

  handle(bodyText: string): HttpReply {
    const out = respond({ wire: this.wire, bodyText, script: this.script, sessionId: this.id, now: this.now });
    const failure = this.failures.shift();
    const reply = failure
      ? wireError(this.wire, failure.status, failure.message ?? `injected mock failure (HTTP ${failure.status})`, failure.headers)
      : out.reply;
    this.requests.push({ status: reply.status, turn: out.turn, request: out.request, bodyBytes: Buffer.byteLength(bodyText, 'utf8') });
    return reply;
  }
}
