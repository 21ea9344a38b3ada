/**
 * The Gemini API's error envelope (google.rpc.Status as JSON):
 * `{"error": {"code": 429, "message": "...", "status": "RESOURCE_EXHAUSTED",
 * "details": [...]}}`. The API sends no Retry-After header: its back-off hint
 * is a `google.rpc.RetryInfo` detail with `retryDelay` as a protobuf Duration
 * (`"27s"`, `"0.200s"`). A retry hint given to the mock as a header
 * (`retry-after-ms` / `retry-after`, the form the other wires use) is moved
 * into that detail here, so a Gemini client sees it where the real API puts it.
 */
import type { HttpReply } from './http-reply.js';

/** The canonical status name of each HTTP status the API answers with. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  413: 'INVALID_ARGUMENT',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'UNIMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

/** The API's own wording for the common statuses. */
export const GEMINI_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Request contains an invalid argument.',
  401: 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  403: 'The caller does not have permission',
  404: 'Requested entity was not found.',
  413: 'Request payload size exceeds the limit: 20971520 bytes.',
  429: 'Resource has been exhausted (e.g. check quota).',
  500: 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  503: 'The model is overloaded. Please try again later.',
  504: 'Deadline expired before operation could complete.',
};

export const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';

/** A Duration in its JSON form: seconds with up to 9 fractional digits and an `s`. */
export function durationText(ms: number): string {
  const seconds = Math.max(0, ms) / 1000;
  return Number.isInteger(seconds) ? `${seconds}s` : `${seconds.toFixed(3).replace(/0+$/, '')}s`;
}

/** A retry hint written as a header, in ms (the headers are removed from `headers`). */
function takeRetryHint(headers: Record<string, string>): number | null {
  let ms: number | null = null;
  for (const name of Object.keys(headers)) {
    const lower = name.toLowerCase();
    const value = Number(headers[name]);
    if (lower === 'retry-after-ms' && Number.isFinite(value)) ms = value;
    else if (lower === 'retry-after' && Number.isFinite(value) && ms === null) ms = value * 1000;
    else continue;
    delete headers[name];
  }
  return ms;
}

/** The status name for a status (`statusName` wins when it is one, e.g. a fault's `error_type: RESOURCE_EXHAUSTED`). */
export function geminiStatusName(status: number, statusName?: string): string {
  if (statusName !== undefined && /^[A-Z_]+$/.test(statusName)) return statusName;
  return STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION');
}

export function geminiError(status: number, message: string, statusName?: string, headers: Record<string, string> = {}): HttpReply {
  const rest = { ...headers };
  const retryMs = takeRetryHint(rest);
  const error: Record<string, unknown> = { code: status, message, status: geminiStatusName(status, statusName) };
  if (retryMs !== null) error['details'] = [{ '@type': RETRY_INFO_TYPE, retryDelay: durationText(retryMs) }];
  return { status, headers: { 'content-type': 'application/json; charset=UTF-8', ...rest }, body: JSON.stringify({ error }, null, 2) };
}
