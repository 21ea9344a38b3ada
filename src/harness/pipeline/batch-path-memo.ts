/**
 * Lifetime of the path guard's directory memo (permissions/path-resolve.ts
 * RealDirMemo): one per batch of a turn (schedule/batch-planner.ts), and
 * shared only while nothing in that batch can change files.
 *
 * What is remembered: the real path of a PARENT directory of a checked path.
 * The leaf is lstat-ed on every check, so a leaf swapped for a symlink is
 * always caught. What a memo could miss: a directory swapped for a symlink
 * (or moved) between two checks that share it. Why that cannot be the
 * agent's doing here:
 *  - a new batch gets a new memo, and batches run strictly one after another
 *    (the pool starts a batch only when the previous one has finished), so a
 *    mutating call — always a batch of its own — never sits between two checks
 *    that share a memo;
 *  - within a batch the memo is shared only by concurrency-safe calls, and as
 *    soon as the chain judges a call of the batch not read-only (a tool that
 *    claims to be concurrency-safe while changing files), the batch's memo is
 *    dropped and later checks in it resolve afresh;
 *  - a call that is not concurrency-safe gets a memo of its own, which only
 *    saves resolving the same directory twice within its one check.
 * What remains is what any check has: a process outside the agent's calls
 * could swap a directory between check and use. The memo stretches that
 * window from one call to one batch of read-only calls of one turn (usually
 * milliseconds), never across batches or turns: a cross-turn memo was
 * rejected for exactly that reason (tests/pipeline/path-memo.test.ts).
 */
import type { RealDirMemo } from '../permissions/path-resolve.js';
import type { PipelineCall } from './call.js';

export class BatchPathMemo {
  private batch = -1;
  private memo: RealDirMemo = new Map();
  private shared = true;

  /** The memo the permission check of `call` may use. */
  for(call: PipelineCall): RealDirMemo {
    if (call.batch !== this.batch) {
      this.batch = call.batch;
      this.memo = new Map();
      this.shared = true;
    }
    return this.shared && call.concurrencySafe === true ? this.memo : new Map();
  }

  /** The chain judged `call` able to change files: no later check of its batch may reuse what earlier ones saw. */
  mayChangeFiles(call: PipelineCall): void {
    if (call.batch !== this.batch) return;
    this.shared = false;
    this.memo = new Map();
  }
}
