/**
 * Words bash evaluates as code although the parser sees plain text
 * (docs/harness-rules.md#shell-parsing "injection patterns"): an array subscript is an arithmetic expression
 * and `$(...)` inside it runs (`declare 'a[$(cmd)]=1'`, `printf -v`,
 * `test -v`, `read`), arithmetic evaluates a variable's value recursively
 * (`x='a[$(cmd)]'; echo $((x))`, `[[ $x -eq 1 ]]`, `${s:x}`), `${x@P}`
 * expands a prompt string and `${!x}` dereferences a name. Each is refused
 * unless provably inert: subscripts of digits, `@` or `*`; arithmetic on
 * numbers and on variables that the command only ever sets to integers.
 *
 * Which variables are provably numbers is decided by shell-variables.ts:
 * set only to integers by the command itself, or bash's own integer
 * variables. Positional parameters are never inert.
 */
import type { Node } from 'web-tree-sitter';
import type { ShellFlag } from './shell-types.js';
import { shellWord } from './shell-words.js';
import { variableFacts } from './shell-variables.js';

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^-?[0-9]+$/;
const ARITH_TEST_OPS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const INERT_SPECIALS = new Set(['#', '?', '$', '!', '-']);
/** Built-ins whose operands are variable names (a subscript in a name is evaluated). */
const NAME_BUILTINS = new Set(['declare', 'typeset', 'local', 'export', 'readonly', 'unset', 'read', 'mapfile', 'readarray', 'getopts', 'wait', 'printf', 'test', '[', 'let']);
const DECLARE_FAMILY = new Set(['declare', 'typeset', 'local', 'export', 'readonly']);

export function evaluatedWords(root: Node): ShellFlag[] {
  const facts = variableFacts(root);
  const assoc = associativeArrays(root);
  const flags: ShellFlag[] = [];
  const flag = (detail: string) => flags.push({ construct: 'eval_like', detail });
  const checkRef = (name: string, where: string) => {
    if (/^[0-9]+$/.test(name) || name === '@' || name === '*') flag(`${where} on the positional parameter $${name}`);
    else if (!facts.isInert(name)) flag(`${where} on $${name}, which this command does not set to a number (bash evaluates its value as an expression, and a subscript in it runs code)`);
  };
  /** Every variable an arithmetic expression refers to must be inert. */
  const arithmetic = (node: Node, where: string) => {
    const visit = (n: Node) => {
      switch (n.type) {
        case 'variable_name':
          checkRef(n.text, where);
          return;
        case 'word':
          if (IDENT.test(n.text)) checkRef(n.text, where);
          else if (!/^[0-9A-Za-z_#]+$/.test(n.text) && /[$`[]/.test(n.text)) flag(`${where} with ${n.text.slice(0, 40)}`);
          return;
        case 'special_variable_name':
          if (!INERT_SPECIALS.has(n.text)) checkRef(n.text, where);
          return;
        case 'string':
        case 'raw_string':
          if (/[A-Za-z_$`[]/.test(n.text)) flag(`${where} on a string`);
          return;
        default:
          for (const c of n.namedChildren) visit(c);
      }
    };
    visit(node);
  };
  /** A name operand (`a`, `a[3]`) of a built-in: a subscript must be inert. */
  const nameWord = (text: string | null, where: string) => {
    if (text === null) return flag(`${where} with a name computed at run time`);
    if (/[$`]/.test(text)) return flag(`${where} ${text.slice(0, 40)}`);
    const open = text.indexOf('[');
    if (open < 0) return;
    const close = text.indexOf(']', open);
    const sub = close < 0 ? text.slice(open + 1) : text.slice(open + 1, close);
    if (INTEGER.test(sub) || sub === '@' || sub === '*') return;
    if (IDENT.test(sub)) return checkRef(sub, `${where} subscript`);
    flag(`${where} ${text.slice(0, 40)} (its subscript is evaluated)`);
  };

  const walk = (n: Node) => {
    switch (n.type) {
      case 'arithmetic_expansion':
        arithmetic(n, 'arithmetic');
        return;
      case 'c_style_for_statement':
        for (const c of n.namedChildren) if (c.type !== 'do_group' && c.type !== 'compound_statement') arithmetic(c, 'arithmetic');
        for (const c of n.namedChildren) if (c.type === 'do_group' || c.type === 'compound_statement') walk(c);
        return;
      case 'compound_statement':
        if (n.children[0]?.type === '((') {
          arithmetic(n, 'arithmetic');
          return;
        }
        break;
      case 'subscript':
        // An associative array's key is a string (substitutions in it are flagged by the analysis itself).
        if (!assoc.has(n.namedChildren[0]?.text ?? '')) for (const c of n.namedChildren.slice(1)) arithmetic(c, 'a subscript');
        return;
      case 'expansion':
        expansion(n);
        break;
      case 'array':
        arrayKeys(n);
        break;
      case 'binary_expression': {
        const op = n.namedChildren.find((c) => c.type === 'test_operator')?.text;
        if (op && ARITH_TEST_OPS.has(op) && insideDoubleBracket(n)) {
          for (const c of n.namedChildren) if (c.type !== 'test_operator') arithmetic(c, `\`[[ ${op} ]]\``);
          return;
        }
        break;
      }
      case 'unary_expression': {
        const op = n.namedChildren.find((c) => c.type === 'test_operator')?.text;
        const operand = n.namedChildren.find((c) => c.type !== 'test_operator');
        if (op === '-v' && operand) {
          if (operand.type === 'simple_expansion' || operand.type === 'expansion') arithmetic(operand, '`[[ -v ]]`');
          else nameWord(shellWord(operand).value, '`[[ -v`');
          return;
        }
        break;
      }
      case 'command':
      case 'declaration_command':
      case 'unset_command':
        builtinNames(n);
        break;
    }
    for (const c of n.namedChildren) walk(c);
  };

  const expansion = (n: Node) => {
    const tokens = n.children.map((c) => c.type);
    if (tokens[1] === '!' && !tokens.includes('subscript') && !(tokens.includes('*') || tokens.includes('@'))) flag(`\${!${n.text.slice(3, -1)}} (indirect expansion evaluates the name it finds)`);
    const at = tokens.indexOf('@');
    if (at >= 0 && n.children[at + 1]?.text === 'P') flag(`${n.text.slice(0, 40)} (prompt expansion runs substitutions in the value)`);
    // `${s:off:len}`: the offset and length are arithmetic.
    const colon = n.children.findIndex((c) => c.type === ':');
    if (colon >= 0) for (const c of n.children.slice(colon + 1)) if (c.isNamed) arithmetic(c, 'a substring offset');
  };

  /** `a=([k]=v)`: in an indexed array the key is arithmetic (an associative array's is a plain string). */
  const arrayKeys = (n: Node) => {
    const owner = n.parent?.type === 'variable_assignment' ? n.parent.childForFieldName('name')?.text : undefined;
    if (owner !== undefined && assoc.has(owner)) return;
    for (const el of n.namedChildren) {
      if (!el.text.startsWith('[')) continue;
      const v = shellWord(el).value;
      const close = v === null ? -1 : v.indexOf(']=');
      if (v === null || close < 0) {
        flag(`an array element key ${el.text.slice(0, 40)} computed at run time`);
        continue;
      }
      const key = v.slice(1, close);
      if (INTEGER.test(key)) continue;
      if (IDENT.test(key)) checkRef(key, 'an array element key');
      else flag(`an array element key [${key.slice(0, 40)}] (bash evaluates it as arithmetic)`);
    }
  };

  const builtinNames = (n: Node) => {
    const first = n.type === 'command' ? n.namedChildren.find((c) => c.type === 'command_name')?.text : n.children[0]?.type;
    if (first === undefined || !NAME_BUILTINS.has(first)) return;
    const args = n.namedChildren.filter((c) => c.type !== 'command_name' && c.type !== 'file_redirect' && c.type !== 'heredoc_redirect' && c.type !== 'herestring_redirect');
    const values = args.map((a) => (a.type === 'variable_assignment' ? null : shellWord(a).value));
    const where = `\`${first}\``;
    args.forEach((a, i) => {
      const v = values[i] ?? null;
      if (a.type === 'variable_assignment') {
        const name = a.childForFieldName('name');
        if (name && name.type === 'subscript') walk(name);
        return;
      }
      if (first === 'let') {
        if (v === null || /[$`]/.test(v)) flag(`\`let\` ${a.text.slice(0, 40)}`);
        else for (const id of v.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []) checkRef(id, '`let`');
        if (v !== null && v.includes('[')) nameWord(v.split('=')[0] ?? v, '`let`');
        return;
      }
      if (v !== null && v.startsWith('-')) {
        if (DECLARE_FAMILY.has(first) && /^-[a-zA-Z]*[in]/.test(v)) flag(`\`${first} ${v}\` (integer and name-reference attributes evaluate later values)`);
        // A name glued to its option (`printf -vNAME`, `wait -pNAME`) is a name operand too.
        const glued = first === 'printf' ? /^-v(.+)$/.exec(v) : first === 'wait' ? /^-[a-zA-Z]*p(.+)$/.exec(v) : null;
        if (glued) nameWord(glued[1] as string, where);
        return;
      }
      if (first === 'printf' && values[i - 1] !== '-v') return;
      if ((first === 'test' || first === '[') && values[i - 1] !== '-v') return;
      if (first === 'getopts' && i === 0) return;
      if (first === 'wait' && values[i - 1] !== '-p') return;
      nameWord(v === null ? null : (v.split('=')[0] ?? v), where);
      if (v !== null && v.includes('=') && /[$`]/.test(v)) flag(`${where} ${v.slice(0, 40)}`);
    });
  };

  walk(root);
  return flags;
}

function insideDoubleBracket(n: Node): boolean {
  for (let p: Node | null = n.parent; p; p = p.parent) if (p.type === 'test_command') return p.children[0]?.type === '[[';
  return false;
}

/** Names declared associative in the command (`declare -A m`): their keys are strings, never evaluated. */
function associativeArrays(root: Node): Set<string> {
  const out = new Set<string>();
  const visit = (n: Node) => {
    if (n.type === 'declaration_command' && n.namedChildren.some((c) => /^-[a-zA-Z]*A/.test(c.text))) {
      for (const c of n.namedChildren) {
        const name = c.type === 'variable_assignment' ? c.childForFieldName('name')?.text : c.type === 'variable_name' || c.type === 'word' ? c.text : undefined;
        if (name && !name.startsWith('-')) out.add(name);
      }
    }
    for (const c of n.namedChildren) visit(c);
  };
  visit(root);
  return out;
}
