import { describe, expect, it } from 'vitest';
import { kindForStatus, toModelCallError } from './classify-error.js';
import { parseRetryAfterMs } from './retry-after.js';

const headers = (h: Record<string, string>) => new Headers(h);

describe('provider error classification', () => {
  it('classifies by HTTP status', () => {
    const statuses = [429, 529, 500, 502, 503, 504, 400, 404, 413, 422, 401, 403, 408, 409];
    expect(statuses.map(kindForStatus)).toEqual([
      'rate_limited',
      'overloaded',
      'server_error',
      'server_error',
      'server_error',
      'server_error',
      'invalid_request',
      'invalid_request',
      'invalid_request',
      'invalid_request',
      'auth',
      'auth',
      'timeout',
      'unknown',
    ]);
  });

  it('marks transient kinds retryable and request problems not', () => {
    const http = (status: number) => toModelCallError({ transport: 'http', status, headers: null, message: 'x' });
    expect([http(429), http(529), http(500)].map((e) => e.retryable)).toEqual([true, true, true]);
    expect([http(400), http(401), http(404)].map((e) => e.retryable)).toEqual([false, false, false]);
    expect(toModelCallError({ transport: 'connection', message: 'x' })).toMatchObject({ kind: 'connection', retryable: true, status: null });
    expect(toModelCallError({ transport: 'timeout', message: 'x' })).toMatchObject({ kind: 'timeout', retryable: true });
    expect(toModelCallError({ transport: 'other', message: 'x' })).toMatchObject({ kind: 'unknown', retryable: false });
  });

  it('keeps the status and the parsed retry-after on the error', () => {
    const error = toModelCallError({ transport: 'http', status: 429, headers: headers({ 'retry-after': '3' }), message: 'slow down' });
    expect([error.kind, error.status, error.retryAfterMs, error.message, error.code]).toEqual(['rate_limited', 429, 3000, 'slow down', 'MODEL_CALL_ERROR']);
  });
});

describe('retry-after parsing', () => {
  const now = () => Date.parse('2026-01-01T00:00:00Z');

  it('prefers retry-after-ms over retry-after', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': '250.4', 'retry-after': '9' }), now)).toBe(250);
  });

  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after': '1.5' }), now)).toBe(1500);
    expect(parseRetryAfterMs(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:05 GMT' }), now)).toBe(5000);
  });

  it('returns null for absent, garbage, zero, negative or past values', () => {
    const values: Array<Record<string, string>> = [{}, { 'retry-after': 'soon' }, { 'retry-after': '0' }, { 'retry-after': '-4' }, { 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }];
    expect(values.map((h) => parseRetryAfterMs(headers(h), now))).toEqual([null, null, null, null, null]);
    expect(parseRetryAfterMs(null, now)).toBeNull();
  });

  it('falls back to retry-after when retry-after-ms is unusable', () => {
    expect(parseRetryAfterMs(headers({ 'retry-after-ms': 'x', 'retry-after': '2' }), now)).toBe(2000);
  });
});
