/**
 * Head 70% / tail 30% of a text that is over a TOKEN budget (MCP results,
 * docs/harness-rules.md#mcp-limits), priced by token-estimate.ts: a budget of 25,000 tokens
 * keeps ~100,000 characters of English but ~25,000 of Chinese. A media
 * placeholder is kept whole or left out whole, and a cut never splits a
 * surrogate pair. What is left out is counted (characters and media blocks)
 * so the notice can say so: nothing is dropped silently.
 */
import { pricedRuns, runTokens, type PricedRun } from './token-estimate.js';

/** Tokens kept free for the notice around the cut. */
export const TOKEN_NOTICE_BUDGET = 100;

export interface TokenCut {
  head: string;
  tail: string;
  /** Characters left out between head and tail. */
  omittedChars: number;
  /** Media placeholders (images, audio) left out between head and tail. */
  omittedMedia: number;
  /** Estimated tokens of the whole text. */
  totalTokens: number;
}

/** null when the text is within the budget. */
export function tokenHeadTail(text: string, maxTokens: number): TokenCut | null {
  const runs = pricedRuns(text);
  let total = 0;
  for (const run of runs) total += runTokens(run);
  if (total <= maxTokens) return null;
  const usable = Math.max(0, maxTokens - TOKEN_NOTICE_BUDGET);
  const headBudget = Math.floor(usable * 0.7);
  const headEnd = walkForward(text, runs, headBudget);
  const tailStart = walkBackward(text, runs, usable - headBudget, headEnd);
  const omittedMedia = runs.filter((r) => r.fixed && r.start >= headEnd && r.end <= tailStart).length;
  return {
    head: text.slice(0, headEnd),
    tail: text.slice(tailStart),
    omittedChars: tailStart - headEnd,
    omittedMedia,
    totalTokens: Math.ceil(total),
  };
}

function walkForward(text: string, runs: readonly PricedRun[], budget: number): number {
  let left = budget;
  for (const run of runs) {
    const cost = runTokens(run);
    if (cost <= left) {
      left -= cost;
      continue;
    }
    if (run.fixed) return run.start;
    let end = run.start + Math.floor(left / run.rate);
    if (end > run.start && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    return end;
  }
  return text.length;
}

function walkBackward(text: string, runs: readonly PricedRun[], budget: number, floor: number): number {
  let left = budget;
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i]!;
    if (run.end <= floor) return floor;
    const cost = runTokens(run);
    if (cost <= left && run.start >= floor) {
      left -= cost;
      continue;
    }
    if (run.fixed) return run.end;
    let start = Math.max(floor, run.end - Math.floor(left / run.rate));
    if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
    return start;
  }
  return floor;
}

const isHighSurrogate = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;
