/**
 * Static values of parsed shell words. A word is static when its value is
 * known without running anything: no parameter expansion, no substitution,
 * no brace expansion. Non-static words get `value: null`, and every judge
 * treats null as "unknown" (fail closed).
 */
import type { Node } from 'web-tree-sitter';
import { isRuleOn } from './rule-switches.js';
import type { TreeRead } from './types.js';

export interface ShellWord {
  /** Source text of the word, quotes and escapes included. */
  readonly text: string;
  /** Value after quote removal, or null when it depends on run-time state. */
  readonly value: string | null;
  /** Contains an unquoted glob character (`*`, `?`, `[`): names any number of files. */
  readonly glob: boolean;
  /**
   * With `glob`: the word as a bash pattern, quoted metacharacters escaped
   * (`'*'x*` is `\*x*`), so the expander matches what bash would.
   */
  readonly pattern?: string;
  /** Set by a judge on a word it builds (find's `{}`): the path is read as a tree. */
  readonly tree?: TreeRead;
}

export function shellWord(node: Node): ShellWord {
  const acc = { glob: false };
  const value = tildeIsDynamic(node.text) ? null : valueOf(node, acc);
  if (!acc.glob || value === null) return { text: node.text, value, glob: acc.glob };
  return { text: node.text, value, glob: true, pattern: patternOf(node) ?? undefined };
}

/**
 * An unquoted tilde prefix other than `~` itself names a directory only known
 * when bash runs: `~-` is $OLDPWD, `~+` is $PWD, `~N` the directory stack,
 * `~user` another home. (`~` is the home the harness sets, judged as such.)
 */
function tildeIsDynamic(text: string): boolean {
  if (!text.startsWith('~') || !isRuleOn('working_dirs')) return false;
  const slash = text.indexOf('/');
  return (slash < 0 ? text : text.slice(0, slash)) !== '~';
}

const escapeGlob = (s: string): string => s.replace(/[*?[\]\\]/g, '\\$&');

/** The pattern form of a static word: unquoted text keeps its escapes, quoted text is escaped. */
function patternOf(node: Node): string | null {
  switch (node.type) {
    case 'word':
      return node.text.replaceAll('\\\n', '');
    case 'number':
      return node.text;
    case 'raw_string':
      return escapeGlob(node.text.slice(1, -1));
    case 'string': {
      const v = doubleQuoted(node);
      return v === null ? null : escapeGlob(v);
    }
    case 'concatenation': {
      let out = '';
      for (const child of node.namedChildren) {
        const p = patternOf(child);
        if (p === null) return null;
        out += p;
      }
      return out;
    }
    default:
      return null;
  }
}

function valueOf(node: Node, acc: { glob: boolean }): string | null {
  switch (node.type) {
    case 'word':
      return unquotedWord(node.text, acc);
    case 'number':
      return node.text;
    case 'raw_string':
      return node.text.slice(1, -1);
    case 'string':
      return doubleQuoted(node);
    case 'simple_expansion':
    case 'expansion':
      // `$HOME` is `~` for the judges: the harness sets it, and assigning it in the command is flagged.
      return isHome(node) ? '~' : null;
    case 'concatenation': {
      let out = '';
      for (const [i, child] of node.namedChildren.entries()) {
        if (i === 0 && isHome(child)) {
          out += '~';
          continue;
        }
        const v = valueOf(child, acc);
        if (v === null) return null;
        out += v;
      }
      // A concatenation can also hide brace expansion split over several words.
      if (hasUnquotedBrace(node)) return null;
      return out;
    }
    default:
      // simple_expansion, expansion, command_substitution, process_substitution,
      // arithmetic_expansion, ansi_c_string, translated_string, brace_expression...
      return null;
  }
}

/** Remove backslash escapes from an unquoted word; detect globs and brace expansion. */
function unquotedWord(text: string, acc: { glob: boolean }): string | null {
  // `{a,b}` / `{1..3}` expand to several words; braces without a comma or `..` (`{}`, `-i{}`) are literal.
  if (containsUnescaped(text, '{') && containsUnescaped(text, '}') && (text.includes(',') || text.includes('..'))) return null;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      i++;
      if (next === undefined || next === '\n') continue;
      out += next;
      continue;
    }
    if (c === '*' || c === '?' || c === '[') acc.glob = true;
    out += c;
  }
  return out;
}

function containsUnescaped(text: string, ch: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text[i] === ch) return true;
  }
  return false;
}

function hasUnquotedBrace(node: Node): boolean {
  const parts = node.namedChildren.filter((c) => c.type === 'word').map((c) => c.text);
  const joined = parts.join('');
  return containsUnescaped(joined, '{') && containsUnescaped(joined, '}') && (node.text.includes(',') || node.text.includes('..'));
}

/**
 * Inside double quotes only `\$ \` \" \\ \<newline>` are escapes; any expansion makes it dynamic.
 * Read from the source between the quotes, not only from the named children: tree-sitter
 * leaves some literal text (a lone `$`) as an anonymous token, and that text is still in the word.
 */
function doubleQuoted(node: Node): string | null {
  const text = node.text;
  const base = node.startIndex;
  let out = '';
  let pos = 1; // after the opening quote
  const literal = (t: string) => {
    for (let i = 0; i < t.length; i++) {
      const c = t[i] as string;
      const next = t[i + 1];
      if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
        i++;
        if (next !== '\n') out += next;
        continue;
      }
      out += c;
    }
  };
  const children = node.children;
  for (let k = 0; k < children.length; k++) {
    const child = children[k] as Node;
    const from = child.startIndex - base;
    const to = child.endIndex - base;
    if (!child.isNamed && (k === 0 || k === children.length - 1) && child.type === '"') continue;
    if (from > pos) literal(text.slice(pos, from));
    if (child.type === 'string_content') literal(child.text);
    else if (!child.isNamed && child.type === '$') out += isRuleOn('word_fidelity') ? '$' : '';
    else if (out === '' && from === 1 && isHome(child)) out += '~';
    else return null;
    pos = to;
  }
  if (text.length - 1 > pos) literal(text.slice(pos, text.length - 1));
  return out;
}

/** `$HOME` or `${HOME}` exactly (no operator, no subscript). */
function isHome(node: Node): boolean {
  if (node.type !== 'simple_expansion' && node.type !== 'expansion') return false;
  const named = node.namedChildren;
  return named.length === 1 && named[0]?.type === 'variable_name' && named[0].text === 'HOME' && node.children.length === (node.type === 'expansion' ? 3 : 2);
}
