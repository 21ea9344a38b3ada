/**
 * Source positions in a suite file (1-based line and column), for messages a
 * user can jump to: the node at a path, a key of a mapping, a word inside a
 * one-line string, and the opening of an unclosed quote or bracket.
 */
import type { Document, LineCounter, Node, YAMLError } from 'yaml';
import { yaml } from './lazy-yaml.js';

export interface Position {
  line: number;
  col: number;
}

export class YamlPositions {
  constructor(
    private readonly doc: Document,
    private readonly lines: LineCounter,
    private readonly text: string,
  ) {}

  at(offset: number): Position {
    return this.lines.linePos(offset);
  }

  /** The deepest node that exists along `path` (the document start when none does). */
  node(path: readonly PropertyKey[]): Position {
    return this.at(this.nodeAlong(path)?.range?.[0] ?? 0);
  }

  /** A key of the mapping at `path`, e.g. a misspelt setting (the mapping itself when the key is not found). */
  key(path: readonly PropertyKey[], key: string): Position {
    const { isMap, isScalar } = yaml();
    const map = this.doc.getIn(path as unknown[], true);
    if (isMap(map)) {
      for (const pair of map.items) {
        if (isScalar(pair.key) && String(pair.key.value) === key && pair.key.range) return this.at(pair.key.range[0]);
      }
    }
    return this.node(path);
  }

  /**
   * A character of the string at `path`: exact when the string is written on
   * one line with nothing escaped (plain or quoted), else the string's start.
   */
  inString(path: readonly PropertyKey[], offset: number): Position {
    const { isScalar } = yaml();
    const node = this.doc.getIn(path as unknown[], true);
    if (!isScalar(node) || !node.range || typeof node.value !== 'string') return this.node(path);
    const raw = this.text.slice(node.range[0], node.range[1]);
    const value = node.value;
    if (node.type === 'PLAIN' && raw === value) return this.at(node.range[0] + offset);
    if ((node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE') && raw.slice(1, -1) === value) return this.at(node.range[0] + 1 + offset);
    return this.at(node.range[0]);
  }

  /**
   * Where a syntax error is. An unclosed quote or flow collection is reported
   * where it opens (the parser only notices it lines later, often at the end
   * of the file), with where the parser noticed.
   */
  syntaxError(error: YAMLError): { at: Position; noticed: Position | null } {
    const noticed = this.at(error.pos[0]);
    const unclosed = /^Missing closing .?quote|end with a [\]}]/.test(error.message);
    const opener = unclosed ? this.openerBefore(error.pos[0]) : null;
    if (opener === null) return { at: noticed, noticed: null };
    const at = this.at(opener);
    return { at, noticed: at.line === noticed.line && at.col === noticed.col ? null : noticed };
  }

  /** The start of the innermost quoted scalar or flow collection that reaches `offset`. */
  private openerBefore(offset: number): number | null {
    const { isCollection, isScalar, visit } = yaml();
    let best: number | null = null;
    visit(this.doc, (_key, node) => {
      const opens = (isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) || (isCollection(node) && node.flow === true);
      if (!opens || !node.range) return;
      const [start, end] = node.range;
      if (start <= offset && offset <= end && (best === null || start > best)) best = start;
    });
    return best;
  }

  private nodeAlong(path: readonly PropertyKey[]): Node | null {
    const { isNode } = yaml();
    for (let depth = path.length; depth >= 0; depth--) {
      const node = this.doc.getIn(path.slice(0, depth) as unknown[], true);
      if (isNode(node) && node.range) return node;
    }
    return null;
  }
}
