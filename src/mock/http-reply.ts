/**
 * One HTTP answer of the mock, before any mount writes it: its own file so
 * that every wire's error builders can use it without importing each other.
 */
/** A mount-neutral HTTP answer; msw and the loopback server only adapt it. */
export interface HttpReply {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body split as it should be written (one SSE event each); absent = `body` in one write. */
  chunks?: string[];
}
