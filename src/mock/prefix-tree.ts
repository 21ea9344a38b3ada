/**
 * Prefixes of a request as a tree of block texts, for the mock's prompt cache
 * (prompt-cache.ts): a node is the prefix made of the blocks on the path to
 * it, `cached` when a request marked a breakpoint there. Two prefixes are the
 * same node exactly when their blocks' texts are equal, one by one.
 */
export interface PrefixNode {
  cached: boolean;
  /** Next block's text -> the longer prefix (null until one is written). */
  next: Map<string, PrefixNode> | null;
}

export class PrefixTree {
  readonly root: PrefixNode = { cached: false, next: null };

  /** The prefix one block longer than `node`, if a request wrote it. */
  static child(node: PrefixNode, text: string): PrefixNode | undefined {
    return node.next?.get(text);
  }

  /**
   * Writes the prefixes of `texts` up to index `last`, marking those where
   * `marks` is true. `found[i]`: the node the caller's walk found for prefix
   * i (undefined from the first one not written yet), so only the new tail is
   * looked up again.
   */
  write(texts: readonly string[], marks: readonly boolean[], last: number, found: ReadonlyArray<PrefixNode | undefined>): void {
    let node = this.root;
    for (let i = 0; i <= last; i++) {
      let child = found[i];
      if (child === undefined) {
        const text = texts[i]!;
        node.next ??= new Map();
        child = node.next.get(text);
        if (child === undefined) {
          child = { cached: false, next: null };
          node.next.set(text, child);
        }
      }
      if (marks[i]) child.cached = true;
      node = child;
    }
  }
}
