/**
 * The prompt-size estimate the context manager compares with the window.
 *
 * Estimator: tokens ≈ ceil(bytes / 4) of the request body exactly as the
 * adapter serialises it for the wire (system, tools and messages together,
 * `model.describeRequest().requestBytes`). Four bytes per token is the usual
 * rule of thumb for English text and JSON with BPE tokenizers; it is cheap and
 * needs no tokenizer. Where the provider already counted the previous prompt
 * (the last response's input + cache read + cache write tokens), that exact
 * ratio of tokens to bytes is applied to this request when it gives more, so
 * text that tokenizes densely (code, CJK) is not underestimated turn after
 * turn. Counting via the provider's count-tokens endpoint would cost a round
 * trip per turn, so it is not used.
 */
export const BYTES_PER_TOKEN = 4;

export function tokensOfBytes(bytes: number): number {
  return Math.ceil(Math.max(0, bytes) / BYTES_PER_TOKEN);
}

/** What the provider said about the last prompt it received. */
export interface CountedPrompt {
  /** input + cache read + cache write tokens of the last response. */
  tokens: number;
  /** requestBytes of the request that response answered. */
  bytes: number;
}

export function estimatePromptTokens(requestBytes: number, counted: CountedPrompt | null): number {
  const byBytes = tokensOfBytes(requestBytes);
  if (counted === null || counted.tokens <= 0 || counted.bytes <= 0) return byBytes;
  return Math.max(byBytes, Math.ceil((requestBytes * counted.tokens) / counted.bytes));
}
