/**
 * Head 70% / tail 30% of an over-limit text (docs/harness-rules.md#truncate-and-spill): the head holds the
 * command and context, the tail the error summary a build or test run ends
 * with. 200 characters of the limit are kept for the notice around the cut.
 */
export const NOTICE_BUDGET = 200;

export interface HeadTail {
  head: string;
  tail: string;
  /** Characters left out between head and tail. */
  omitted: number;
}

export function headTail(text: string, limit: number): HeadTail {
  const headSize = Math.floor(limit * 0.7);
  const tailSize = Math.max(0, limit - headSize - NOTICE_BUDGET);
  const head = text.slice(0, headSize);
  const tail = tailSize > 0 ? text.slice(-tailSize) : '';
  return { head, tail, omitted: text.length - head.length - tail.length };
}
