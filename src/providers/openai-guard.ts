/** The one wire call of both OpenAI adapters (Chat Completions and Responses), with SDK errors classified. */
import OpenAI from 'openai';
import { sdkErrorFacts, toModelCallError } from './classify-error.js';
import { ModelCallError } from './types.js';

export async function guardOpenAICall<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  try {
    return await call();
  } catch (error) {
    // A user abort is not a provider error: surface it the way fetch does, and let the harness attribute it.
    if (error instanceof OpenAI.APIUserAbortError) throw signal?.reason ?? error;
    if (signal?.aborted) throw signal.reason;
    if (error instanceof OpenAI.OpenAIError) throw toModelCallError(sdkErrorFacts(error, OpenAI));
    // Not an SDK error: the body of a 200 broke while the SDK read it (a cut JSON body).
    throw new ModelCallError('connection', `the response body broke: ${error instanceof Error ? error.message : String(error)}`, null, null, true);
  }
}
