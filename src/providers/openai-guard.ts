/** The one wire call of both OpenAI adapters (Chat Completions and Responses), with SDK errors classified. */
import OpenAI from 'openai';
import { guardSdkCall, sdkCallError } from './sdk-guard.js';

const OPENAI_CLASSES = { APIUserAbortError: OpenAI.APIUserAbortError, base: OpenAI.OpenAIError, APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError, APIConnectionError: OpenAI.APIConnectionError, APIError: OpenAI.APIError };

export function guardOpenAICall<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return guardSdkCall(OPENAI_CLASSES, call, signal);
}

/** What guardOpenAICall rejects with for `error`, for callers that await the SDK themselves. */
export function openAICallError(error: unknown, signal: AbortSignal | undefined): unknown {
  return sdkCallError(OPENAI_CLASSES, error, signal);
}
