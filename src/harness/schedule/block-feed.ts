/**
 * A push-to-pull queue: the adapter's `onToolUse` callback pushes complete
 * tool_use blocks, the turn's scheduler pulls them with `for await`. Ends
 * when `end()` is called (the response is complete or the attempt discarded).
 */
import type { ToolUseBlock } from '../../providers/types.js';

export class BlockFeed implements AsyncIterable<ToolUseBlock> {
  private readonly queue: ToolUseBlock[] = [];
  private waiting: ((result: IteratorResult<ToolUseBlock>) => void) | null = null;
  private ended = false;

  push(block: ToolUseBlock): void {
    if (this.ended) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: block, done: false });
    } else this.queue.push(block);
  }

  end(): void {
    this.ended = true;
    if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = null;
      resolve({ value: undefined, done: true });
    }
  }

  [Symbol.asyncIterator](): AsyncIterator<ToolUseBlock> {
    return {
      next: () => {
        const block = this.queue.shift();
        if (block) return Promise.resolve({ value: block, done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
    };
  }
}
