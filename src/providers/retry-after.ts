/**
 * Parse the server's back-off hint. `retry-after-ms` (float milliseconds) wins
 * over `retry-after` (seconds or an HTTP date), as in both official SDKs.
 * Returns null when absent, unparseable or not a positive delay.
 */
export interface HeaderSource {
  get(name: string): string | null;
}

export function parseRetryAfterMs(headers: HeaderSource | null | undefined, now: () => number = Date.now): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms !== null && ms.trim() !== '') {
    const value = Number(ms);
    if (Number.isFinite(value) && value > 0) return Math.round(value);
  }
  const ra = headers.get('retry-after');
  if (ra === null || ra.trim() === '') return null;
  const seconds = Number(ra);
  if (Number.isFinite(seconds)) return seconds > 0 ? Math.round(seconds * 1000) : null;
  const date = Date.parse(ra);
  if (Number.isNaN(date)) return null;
  const delta = date - now();
  return delta > 0 ? delta : null;
}
