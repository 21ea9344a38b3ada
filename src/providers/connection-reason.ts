/**
 * Why a connection failed, in words a user can act on: the SDKs say only
 * "Connection error."; the reason (refused, host not found, ...) and the
 * address sit in the error's `cause` chain, as the system error's `code`,
 * `address`/`hostname` and `port` (Node's fetch wraps them; a host with
 * several addresses gives an AggregateError of one per address). Read from
 * those structured fields, never from message text.
 */
/** What each code means, and the word that joins it to the address (`connection refused to 127.0.0.1:11434`). */
const REASONS: Readonly<Record<string, readonly [string, string]>> = {
  ECONNREFUSED: ['connection refused', ' to '],
  ENOTFOUND: ['host not found', ': '],
  EAI_AGAIN: ['host name lookup failed', ': '],
  ECONNRESET: ['connection reset', ' by '],
  ETIMEDOUT: ['connection timed out', ' to '],
  EHOSTUNREACH: ['host unreachable', ': '],
  ENETUNREACH: ['network unreachable', ' for '],
  UND_ERR_CONNECT_TIMEOUT: ['connection timed out', ' to '],
  UND_ERR_SOCKET: ['connection closed by the server', ' '],
};

interface SystemErrorLike {
  code?: unknown;
  address?: unknown;
  hostname?: unknown;
  port?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** `127.0.0.1:11434`, `[::1]:11434`, a host name, or '' when the error names none. */
function where(e: SystemErrorLike): string {
  const host = typeof e.address === 'string' ? e.address : typeof e.hostname === 'string' ? e.hostname : null;
  if (host === null) return '';
  const shown = host.includes(':') ? `[${host}]` : host;
  return typeof e.port === 'number' ? `${shown}:${e.port}` : shown;
}

/** `connection refused to 127.0.0.1:11434`, or null when the chain names no known reason. */
export function connectionReason(error: unknown, depth = 0): string | null {
  if (depth > 8 || error === null || typeof error !== 'object') return null;
  const e = error as SystemErrorLike;
  // An AggregateError (one error per address tried): the first address with a known reason speaks for all.
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const reason = connectionReason(inner, depth + 1);
      if (reason !== null) return reason;
    }
  }
  const known = typeof e.code === 'string' ? REASONS[e.code] : undefined;
  if (known !== undefined) {
    const at = where(e);
    if (at !== '' || e.cause === undefined) return at === '' ? known[0] : `${known[0]}${known[1]}${at}`;
  }
  return connectionReason(e.cause, depth + 1);
}
