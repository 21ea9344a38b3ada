/**
 * A custom `fetch` that follows the call's abort signal itself (the
 * in-process mock's, mock/memory-fetch.ts) is given it in its init under
 * this key, and the adapter does not give the signal to the SDK. Given a
 * signal, the Anthropic SDK hangs a listener on it, registers its removal and
 * puts the response body in a FinalizationRegistry on every request (the
 * OpenAI SDK adds a listener it never takes off): ~7 us of CPU a call, more
 * than the in-process answer of a turn. The SDK passes unknown init members
 * through to `fetch` untouched (its `fetchOptions`). A user abort still ends
 * the call the same way: the fetch rejects or errors the body with the
 * signal's reason, and the adapters surface the reason of an aborted signal
 * whatever the SDK made of it (sdk-guard.ts).
 */
export const CALLER_SIGNAL: unique symbol = Symbol.for('faultline.callerSignal');

/** The caller's signal a fetch was given this way, if any. */
export function callerSignalOf(init: RequestInit | undefined): AbortSignal | null {
  const signal = (init as { [CALLER_SIGNAL]?: AbortSignal } | undefined)?.[CALLER_SIGNAL];
  return signal instanceof AbortSignal ? signal : null;
}
