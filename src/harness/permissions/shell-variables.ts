/**
 * Which variables a bash command may evaluate arithmetically without running
 * code (shell-evaluated.ts). Arithmetic evaluates a variable's value as an
 * expression, recursively, and an array subscript in it expands `$(...)`:
 * `x='a[$(cmd)]'; echo $((x))` runs cmd. So a variable is inert only when it
 * is PROVABLY a number:
 *
 *  - the command sets it only to integers (`x=3`, `for i in 1 2 3`,
 *    `(( i++ ))`, `let n=1`) or to expressions over inert variables
 *    (`y=x+1`), and nothing else sets it (`read`, `getopts`, `printf -v`...);
 *  - or it is one of bash's own integer variables (LINENO, RANDOM, ...) that
 *    the command does not set.
 *
 * Anything else is refused: a variable the command never sets is not known
 * to be a number (and bash assigns many itself from text the model wrote:
 * `_` is the last word of the previous command, BASH_REMATCH the last `=~`
 * match, OPTARG the argument getopts read, BASH_EXECUTION_STRING the whole
 * command). Those bash-owned names are never inert, even when the command
 * also sets them to a number, because bash overwrites them.
 */
import type { Node } from 'web-tree-sitter';
import { shellWord } from './shell-words.js';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^-?[0-9]+$/;
const IDENTS = /[A-Za-z_][A-Za-z0-9_]*/g;
/** `$#`, `$?`, `$$`, `$!`: numbers bash sets. (`$-` is option letters: not a number, but has no subscript either.) */
const INERT_SPECIALS = new Set(['#', '?', '$', '!']);

/** bash's own variables that always hold integers (unless the command assigns them, which is judged as usual). */
const BASH_INTEGERS = new Set([
  'LINENO', 'RANDOM', 'SRANDOM', 'SECONDS', 'EPOCHSECONDS', 'BASHPID', 'PPID', 'UID', 'EUID', 'SHLVL', 'BASH_SUBSHELL',
  'BASH_LINENO', 'BASH_ARGC', 'HISTCMD', 'OPTIND', 'PIPESTATUS', 'GROUPS',
]);
/** Variables bash itself (re)assigns, often from text the command contains. */
const BASH_OWNED = new Set(['_', 'OPTARG', 'REPLY', 'MAPFILE', 'PWD', 'OLDPWD', 'DIRSTACK', 'FUNCNAME', 'COPROC', 'HOSTNAME', 'IFS']);
const BASH_OWNED_PREFIXES = ['BASH_', 'COMP_', 'READLINE_'];
/** Arithmetic assignment operators (`x op= y` leaves x an integer). */
const ARITH_ASSIGN = new Set(['=', '+=', '-=', '*=', '/=', '%=', '<<=', '>>=', '&=', '^=', '|=']);

export interface VariableFacts {
  /** The variable holds a number whenever the command evaluates it (see the module comment). */
  isInert(name: string): boolean;
}

export function variableFacts(root: Node): VariableFacts {
  const tainted = new Set<string>();
  const integers = new Set<string>();
  /** `y=x+1`: y is inert when every name its value refers to is. */
  const deps = new Map<string, Set<string>>();
  const dependOn = (name: string, value: string) => {
    const set = deps.get(name) ?? new Set<string>();
    for (const id of value.match(IDENTS) ?? []) set.add(id);
    deps.set(name, set);
  };
  /** A static value given to `name` (null = computed at run time). */
  const assigned = (name: string, value: string | null) => {
    if (value === null || /[[$`]/.test(value)) tainted.add(name);
    else if (value === '' || INTEGER.test(value.trim())) integers.add(name);
    else dependOn(name, value);
  };

  const visit = (n: Node) => {
    switch (n.type) {
      case 'variable_assignment': {
        const name = n.childForFieldName('name');
        const base = name?.type === 'subscript' ? name.namedChildren[0]?.text : name?.text;
        const value = n.childForFieldName('value');
        if (!base) break;
        if (inArithmetic(n)) integers.add(base);
        else if (value?.type === 'array') {
          for (const el of value.namedChildren) {
            const v = shellWord(el).value;
            // `[k]=v` elements: the value is after `]=`.
            assigned(base, v === null ? null : v.startsWith('[') && v.includes(']=') ? v.slice(v.indexOf(']=') + 2) : v);
          }
        } else if (value && (value.type === 'simple_expansion' || value.type === 'expansion') && value.children.length === (value.type === 'expansion' ? 3 : 2)) {
          // `n=$#`, `x=$y`: a plain copy of another variable is as inert as that variable.
          const src = value.namedChildren[0];
          if (src?.type === 'special_variable_name' && INERT_SPECIALS.has(src.text)) integers.add(base);
          else if (src?.type === 'variable_name') dependOn(base, src.text);
          else tainted.add(base);
        } else assigned(base, value ? shellWord(value).value : '');
        break;
      }
      case 'binary_expression': {
        const op = n.children.find((c) => !c.isNamed)?.type;
        const lhs = n.namedChildren[0];
        if (op && ARITH_ASSIGN.has(op) && lhs && inArithmetic(n) && IDENT.test(lhs.text)) integers.add(lhs.text);
        break;
      }
      case 'postfix_expression':
      case 'unary_expression': {
        const op = n.children.find((c) => !c.isNamed)?.type;
        const operand = n.namedChildren[0];
        if ((op === '++' || op === '--') && operand && IDENT.test(operand.text)) integers.add(operand.text);
        break;
      }
      case 'for_statement': {
        const v = n.childForFieldName('variable')?.text;
        const words = n.namedChildren.filter((c) => c.type !== 'variable_name' && c.type !== 'do_group' && c.type !== 'compound_statement').map((c) => shellWord(c).value);
        if (v) for (const w of words) assigned(v, w !== null && INTEGER.test(w) ? w : null);
        break;
      }
      case 'expansion': {
        const op = n.children.find((c) => c.type === ':=' || c.type === '=');
        const name = n.namedChildren.find((c) => c.type === 'variable_name')?.text;
        if (op && name) tainted.add(name);
        break;
      }
      case 'command':
        commandSets(n, tainted, integers);
        break;
      case 'declaration_command':
        for (const c of n.namedChildren) {
          if (c.type === 'variable_assignment') continue; // visited below
          const v = shellWord(c).value;
          if (v !== null && v.includes('=') && !v.startsWith('-')) assigned((v.split('=')[0] ?? '').replace(/\[.*$/, ''), v.slice(v.indexOf('=') + 1));
        }
        break;
    }
    for (const c of n.namedChildren) visit(c);
  };
  visit(root);

  const memo = new Map<string, boolean>();
  const isInert = (name: string, visiting = new Set<string>()): boolean => {
    const hit = memo.get(name);
    if (hit !== undefined) return hit;
    if (visiting.has(name)) return false; // `x=y y=x`: a cycle proves nothing
    visiting.add(name);
    let inert: boolean;
    if (tainted.has(name) || BASH_OWNED.has(name) || (!BASH_INTEGERS.has(name) && BASH_OWNED_PREFIXES.some((p) => name.startsWith(p)))) inert = false;
    else if (integers.has(name) || deps.has(name)) inert = [...(deps.get(name) ?? [])].every((d) => isInert(d, visiting));
    else inert = BASH_INTEGERS.has(name);
    visiting.delete(name);
    memo.set(name, inert);
    return inert;
  };
  return { isInert: (name) => isInert(name) };
}

/** Names a simple command sets: `read`, `mapfile`, `getopts`, `printf -v`, `wait -p` taint them; `let` makes integers. */
function commandSets(n: Node, tainted: Set<string>, integers: Set<string>): void {
  const cmd = n.namedChildren.find((c) => c.type === 'command_name')?.text;
  const words = n.namedChildren.filter((c) => c.type !== 'command_name').map((c) => shellWord(c).value);
  if (cmd === 'read' || cmd === 'mapfile' || cmd === 'readarray' || cmd === 'getopts') {
    for (const w of words) if (w !== null && IDENT.test(w)) tainted.add(w);
  }
  if (cmd === 'printf' || cmd === 'wait') {
    const flag = cmd === 'printf' ? 'v' : 'p';
    words.forEach((w, i) => {
      if (w === null) return;
      if (words[i - 1] === `-${flag}` && IDENT.test(w.replace(/\[.*$/, ''))) tainted.add(w.replace(/\[.*$/, ''));
      const glued = new RegExp(`^-[a-zA-Z]*${flag}(.+)$`).exec(w);
      if (glued) tainted.add((glued[1] as string).replace(/\[.*$/, ''));
    });
  }
  if (cmd === 'let') {
    for (const w of words) {
      const m = w === null ? null : /^([A-Za-z_][A-Za-z0-9_]*)\s*(?:[-+*/%&|^]|<<|>>)?=/.exec(w);
      if (m) integers.add(m[1] as string);
    }
  }
}

function inArithmetic(n: Node): boolean {
  for (let p: Node | null = n.parent; p; p = p.parent) {
    if (p.type === 'arithmetic_expansion' || p.type === 'c_style_for_statement') return true;
    if (p.type === 'compound_statement' && p.children[0]?.type === '((') return true;
  }
  return false;
}
