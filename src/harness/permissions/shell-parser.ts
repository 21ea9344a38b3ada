/**
 * The bash parser: tree-sitter-bash (WASM) through web-tree-sitter. See
 * README.md for why this parser. Loading the grammar is asynchronous, so it
 * happens once, at module load (top-level await): everything that imports
 * this module gets a synchronous `parseShell`, which is what a call-level
 * `isConcurrencySafe(input): boolean` needs (seed §6.2).
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node, type Tree } from 'web-tree-sitter';

const require = createRequire(import.meta.url);

await Parser.init();
const bash = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
const parser = new Parser();
parser.setLanguage(bash);

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

function findError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    const hit = findError(child);
    if (hit) return hit;
  }
  return null;
}
