/**
 * The one wire call of every adapter, with SDK errors classified. Both
 * official SDKs share the same generated error classes, so one guard serves
 * all three adapters; each passes its SDK's classes.
 */
import { sdkErrorFacts, toModelCallError, type SdkErrorClasses } from './classify-error.js';
import { ModelCallError } from './types.js';

type ErrorClass = abstract new (...args: never[]) => Error;

export interface SdkGuardClasses extends SdkErrorClasses {
  APIUserAbortError: ErrorClass;
  /** The SDK's base error class (AnthropicError, OpenAIError). */
  base: ErrorClass;
}

export async function guardSdkCall<T>(sdk: SdkGuardClasses, call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw sdkCallError(sdk, error, signal);
  }
}

/** What guardSdkCall rejects with for `error`, for callers that await the SDK themselves (one async frame less per call). */
export function sdkCallError(sdk: SdkGuardClasses, error: unknown, signal: AbortSignal | undefined): unknown {
  // A user abort is not a provider error: surface it the way fetch does, and let the harness attribute it.
  if (error instanceof sdk.APIUserAbortError) return signal?.reason ?? error;
  if (signal?.aborted) return signal.reason;
  if (error instanceof sdk.base) return toModelCallError(sdkErrorFacts(error, sdk));
  // Not an SDK error: the body of a 200 broke while the SDK read it (a cut JSON body).
  return new ModelCallError('connection', `the response body broke: ${error instanceof Error ? error.message : String(error)}`, null, null, true);
}
