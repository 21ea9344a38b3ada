/**
 * The bash parser: tree-sitter-bash (WASM) through web-tree-sitter. See
 * README.md for why this parser. Loading the grammar is asynchronous but
 * `parseShell` must be synchronous (a call-level `isConcurrencySafe(input):
 * boolean` needs it, docs/harness-rules.md#call-level-concurrency), so it is loaded once by `loadShellParser()`,
 * which every entry point that runs tools awaits (runAgent, a suite's task).
 * Not at module load: a top-level await would make `require('faultline')`
 * fail with ERR_REQUIRE_ASYNC_MODULE. Before the load, `parseShell` fails
 * closed (the command is unanalyzable), never guesses.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';
import { isRuleOn } from './rule-switches.js';

let parser: Parser | null = null;
let loading: Promise<void> | null = null;

/**
 * The grammar's .wasm: the copy the build puts next to this module (the
 * package ships that 1.3 MB file, not the tree-sitter-bash package with its
 * native build), else the tree-sitter-bash package (a source checkout).
 */
function grammarPath(): string {
  const shipped = fileURLToPath(new URL('./tree-sitter-bash.wasm', import.meta.url));
  if (existsSync(shipped)) return shipped;
  return createRequire(import.meta.url).resolve('tree-sitter-bash/tree-sitter-bash.wasm');
}

/** Loads the grammar once; later calls return the same promise. */
export function loadShellParser(): Promise<void> {
  loading ??= (async () => {
    await Parser.init();
    const bash = await Language.load(grammarPath());
    const p = new Parser();
    p.setLanguage(bash);
    parser = p;
  })().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading;
}

export function shellParserLoaded(): boolean {
  return parser !== null;
}

/** Longest command we parse; longer input is unanalyzable (fail closed, and bounds parse time). */
export const MAX_COMMAND_CHARS = 32_000;

export type ParseOutcome =
  | { ok: true; root: Node; dispose: () => void }
  | { ok: false; error: string };

/**
 * Parse one command line. tree-sitter recovers from syntax errors instead of
 * failing, so an ERROR or MISSING node anywhere is turned into a parse error
 * here: the analysis never sees a guessed tree (fail closed).
 * The caller must call `dispose()` (the tree lives in WASM memory).
 */
export function parseShell(command: string): ParseOutcome {
  if (command.length > MAX_COMMAND_CHARS) return { ok: false, error: `command longer than ${MAX_COMMAND_CHARS} characters` };
  if (command.includes('\0')) return { ok: false, error: 'command contains a NUL byte' };
  if (!parser) return { ok: false, error: 'the bash parser is not loaded (await loadShellParser() before running tools)' };
  let tree: Tree | null;
  try {
    tree = parser.parse(command);
  } catch (err) {
    return { ok: false, error: `parser failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!tree) return { ok: false, error: 'parser returned no tree' };
  const root = tree.rootNode;
  if (root.hasError) {
    const bad = findError(root);
    tree.delete();
    return { ok: false, error: bad ? `syntax error near offset ${bad.startIndex}` : 'syntax error' };
  }
  const joined = command.includes('\\\n') ? findJoinedContinuation(root, command) : -1;
  if (joined >= 0) {
    tree.delete();
    return { ok: false, error: `line continuation inside a word near offset ${joined}` };
  }
  const glued = isRuleOn('word_fidelity') ? findGluedArguments(root, command) : -1;
  if (glued >= 0) {
    tree.delete();
    return { ok: false, error: `the parser split one word in two near offset ${glued}` };
  }
  const t = tree;
  return { ok: true, root, dispose: () => t.delete() };
}

/**
 * bash deletes `\<newline>` before splitting words (`r\<nl>m` is `rm`), but
 * tree-sitter treats it as a separator and sees two words. Two tokens with
 * nothing but continuations between them would be one word to bash: report
 * the offset so the command is unanalyzable (fail closed). -1 when none.
 */
function findJoinedContinuation(root: Node, text: string): number {
  const leaves: Node[] = [];
  const collect = (n: Node): void => {
    if (n.childCount === 0) leaves.push(n);
    else for (const c of n.children) collect(c);
  };
  collect(root);
  for (let i = 1; i < leaves.length; i++) {
    const prev = leaves[i - 1] as Node;
    const next = leaves[i] as Node;
    const gap = text.slice(prev.endIndex, next.startIndex);
    if (gap.length > 0 && gap.split('\\\n').every((part) => part === '')) return prev.endIndex;
  }
  return -1;
}

/** Node types that are (parts of) one argument word; two of them with nothing between are one word to bash. */
const WORDISH = new Set([
  'command_name', 'word', 'string', 'raw_string', 'concatenation', 'simple_expansion', 'expansion', 'command_substitution',
  'process_substitution', 'arithmetic_expansion', 'ansi_c_string', 'translated_string', 'number', 'brace_expression',
]);

/**
 * tree-sitter-bash sometimes ends a word where bash does not: `l[\i]nk/../x`
 * comes back as the two arguments `l[` and `\i]nk/../x`, so the path the
 * judges see is not the one bash opens. Two arguments of one command with no
 * blank between them are one word to bash: report the offset so the command
 * is unanalyzable (fail closed). -1 when none.
 */
function findGluedArguments(root: Node, text: string): number {
  let found = -1;
  const visit = (n: Node): void => {
    if (found >= 0) return;
    if (n.type === 'command' || n.type === 'declaration_command' || n.type === 'unset_command' || n.type === 'for_statement') {
      const kids = n.namedChildren;
      for (let i = 0; i < kids.length; i++) {
        const cur = kids[i] as Node;
        // A blank inside a plain word (`{ }`) separates two words for bash.
        if (cur.type === 'word' && /(^|[^\\])[ \t\n]/.test(cur.text)) found = cur.startIndex;
        if (i === 0) continue;
        const prev = kids[i - 1] as Node;
        // `\ x` starts a word with an escaped blank; tree-sitter skips the escape with the blanks.
        const gap = text.slice(prev.endIndex, cur.startIndex).replaceAll('\\\n', '');
        if (gap.includes('\\')) found = prev.endIndex;
        else if (gap === '' && WORDISH.has(prev.type) && WORDISH.has(cur.type)) found = cur.startIndex;
        if (found >= 0) return;
      }
      if (found >= 0) return;
    }
    for (const c of n.namedChildren) visit(c);
  };
  visit(root);
  return found;
}

function findError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    const hit = findError(child);
    if (hit) return hit;
  }
  return null;
}
