/** The one wire call of both OpenAI adapters (Chat Completions and Responses), with SDK errors classified. */
import OpenAI from 'openai';
import { guardSdkCall } from './sdk-guard.js';

const OPENAI_CLASSES = { APIUserAbortError: OpenAI.APIUserAbortError, base: OpenAI.OpenAIError, APIConnectionTimeoutError: OpenAI.APIConnectionTimeoutError, APIConnectionError: OpenAI.APIConnectionError, APIError: OpenAI.APIError };

export function guardOpenAICall<T>(call: () => Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  return guardSdkCall(OPENAI_CLASSES, call, signal);
}
