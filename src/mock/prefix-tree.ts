/**
 * Prefixes of a request as a tree of block texts, for the mock's prompt cache
 * (prompt-cache.ts): a node is the prefix made of the blocks on the path to
 * it, `cached` when a request marked a breakpoint there. Two prefixes are the
 * same node exactly when their blocks' texts are equal, one by one.
 *
 * Each node also remembers the child last gone to: a session sends the same
 * history again on every turn, so the next block is almost always that one,
 * and comparing two texts is cheaper than hashing a fresh one for the map.
 */
export interface PrefixNode {
  cached: boolean;
  /** Next block's text -> the longer prefix (null until one is written). */
  next: Map<string, PrefixNode> | null;
  /** The text of the child last looked up or written, and that child. */
  lastText: string | null;
  lastChild: PrefixNode | null;
}

const node = (): PrefixNode => ({ cached: false, next: null, lastText: null, lastChild: null });

export class PrefixTree {
  readonly root: PrefixNode = node();

  /** The prefix one block longer than `node`, if a request wrote it. */
  static child(parent: PrefixNode, text: string): PrefixNode | undefined {
    if (parent.lastText === text) return parent.lastChild!;
    const child = parent.next?.get(text);
    if (child !== undefined) {
      parent.lastText = text;
      parent.lastChild = child;
    }
    return child;
  }

  /**
   * Writes the prefixes of `texts` up to index `last`, marking those where
   * `marks` is true. `found[i]`: the node the caller's walk found for prefix
   * i (undefined from the first one not written yet), so only the new tail is
   * looked up again.
   */
  write(texts: readonly string[], marks: readonly boolean[], last: number, found: ReadonlyArray<PrefixNode | undefined>): void {
    let parent = this.root;
    for (let i = 0; i <= last; i++) {
      let child = found[i];
      if (child === undefined) {
        const text = texts[i]!;
        parent.next ??= new Map();
        child = parent.next.get(text);
        if (child === undefined) {
          child = node();
          parent.next.set(text, child);
        }
        parent.lastText = text;
        parent.lastChild = child;
      }
      if (marks[i]) child.cached = true;
      parent = child;
    }
  }
}
