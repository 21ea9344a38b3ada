/**
 * Structural analysis of a bash command (docs/harness-rules.md#shell-parsing): the simple commands of a
 * compound command, redirection targets, and the constructs that must go to
 * ask. Built on the parse tree only, never on regexes over the command line.
 * Any parse error, or any node type this walker does not know, makes the
 * command unanalyzable: callers treat that as "not safe" (fail closed).
 */
import type { Node } from 'web-tree-sitter';
import { parseShell, shellParserLoaded } from './shell-parser.js';
import { shellWord, type ShellWord } from './shell-words.js';
import type { Assignment, FunctionDef, Redirection, ShellAnalysis, ShellConstruct, ShellFlag, SimpleCommand } from './shell-types.js';
import { SHELLS, baseName, isDangerousEnvName, shellCScript, unwrapCommand } from './command-words.js';
import { flagCommand } from './shell-flags.js';
import { judged } from './command-model.js';
import { evaluatedWords } from './shell-evaluated.js';
import { isRuleOn, onRulesChanged } from './rule-switches.js';

export type { Assignment, FunctionDef, Redirection, ShellAnalysis, ShellConstruct, ShellFlag, SimpleCommand } from './shell-types.js';

class Unsupported extends Error {}

interface Ctx {
  stdinFed: boolean;
  fn: { name: string; recursive: boolean } | null;
}

/** Node types whose children are walked without meaning of their own. */
const TRANSPARENT = new Set([
  'program', 'list', 'compound_statement', 'subshell', 'do_group', 'if_statement', 'elif_clause', 'else_clause',
  'while_statement', 'for_statement', 'c_style_for_statement', 'case_statement', 'case_item', 'negated_command',
  'test_command', 'binary_expression', 'unary_expression', 'parenthesized_expression', 'ternary_expression',
  'postfix_expression', 'arithmetic_expansion', 'string', 'concatenation', 'expansion', 'simple_expansion',
  'heredoc_body', 'array', 'subscript', 'brace_expression', 'translated_string', 'variable_assignments',
]);
/** Leaf node types with nothing inside to judge. */
const LEAVES = new Set([
  'word', 'raw_string', 'number', 'variable_name', 'special_variable_name', 'string_content', 'comment',
  'heredoc_start', 'heredoc_end', 'heredoc_content', 'file_descriptor', 'test_operator', 'regex',
  'extglob_pattern', 'ansi_c_string', 'command_name',
]);

const cache = new Map<string, ShellAnalysis>();
const CACHE_MAX = 256;
onRulesChanged(() => cache.clear());
/** How deep `sh -c '...'` scripts are analyzed as commands of their own. */
const MAX_SCRIPT_DEPTH = 3;

/**
 * Analyze one command line. Results are cached by command text: the same
 * command is analyzed by the scheduler's concurrency check and by the
 * permission chain, and analysis results are immutable.
 */
export function analyzeShell(command: string, depth = 0): ShellAnalysis {
  const hit = cache.get(command);
  if (hit) return hit;
  const result = analyzeUncached(command, depth);
  // A fail-closed answer given before the grammar loaded is not the command's analysis: never keep it.
  if (!shellParserLoaded()) return result;
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(command, result);
  return result;
}

function analyzeUncached(command: string, depth: number): ShellAnalysis {
  let parsed: ReturnType<typeof parseShell>;
  try {
    parsed = parseShell(command);
  } catch (err) {
    return { ok: false, error: `parse failed: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const out = {
    commands: [] as SimpleCommand[],
    redirects: [] as Redirection[],
    assignments: [] as Assignment[],
    functions: [] as FunctionDef[],
    flags: [] as ShellFlag[],
    globWords: [] as ShellWord[],
  };
  const empty = parsed.root.namedChildren.every((c) => c.type === 'comment');
  // Substitutions seen while walking the words of the command being built.
  let substStack: string[][] = [];

  const flag = (construct: ShellConstruct, detail: string): void => {
    out.flags.push({ construct, detail });
  };

  const assignment = (node: Node, target: Assignment[]): void => {
    const nameNode = node.childForFieldName('name');
    const name = nameNode?.text ?? '';
    const valueNode = node.childForFieldName('value');
    // `arr[$(cmd)]=1`: the subscript runs code too.
    if (nameNode && nameNode.type !== 'variable_name') walk(nameNode, { stdinFed: false, fn: null });
    target.push({ name, value: valueNode ? shellWord(valueNode) : null });
    if (isDangerousEnvName(name)) flag('env_tampering', name);
    // A literal holding shell code (`x='a[$(id)]'`) runs when bash later evaluates it
    // arithmetically (`$((x))`, `[[ x -eq 1 ]]`) or indirectly (`${!x}`): treat as eval.
    const literal = valueNode ? shellWord(valueNode).value : null;
    if (literal !== null && (literal.includes('$(') || literal.includes('`'))) flag('eval_like', `${name}=<code>`);
    if (valueNode) walk(valueNode, { stdinFed: false, fn: null });
  };

  const redirect = (node: Node, ctx: Ctx): Redirection => {
    // The operator is the first anonymous token (a here-doc's later tokens belong to commands after it).
    const op = node.children.find((c) => !c.isNamed)?.type ?? '';
    const dest = node.childForFieldName('destination');
    let access: Redirection['access'];
    if (node.type === 'herestring_redirect' || node.type === 'heredoc_redirect') access = 'inline';
    else if (op === '<') access = 'read';
    else if (op === '>&-' || op === '<&-' || ((op === '>&' || op === '<&') && (!dest || dest.type === 'number'))) access = 'fd';
    else if (op === '<&') access = 'read';
    else access = 'write';
    const target = access === 'read' || access === 'write' ? (dest ? shellWord(dest) : null) : null;
    const r: Redirection = { op, access, target };
    out.redirects.push(r);
    if (node.type === 'heredoc_redirect') {
      // tree-sitter parses `$(...)` in an expanded here-doc body but leaves backticks as
      // plain text; bash runs them. Unquoted delimiter + a backtick in the body = backticks.
      const start = node.namedChildren.find((c) => c.type === 'heredoc_start')?.text ?? '';
      const body = node.namedChildren.find((c) => c.type === 'heredoc_body')?.text ?? '';
      const quoted = start.includes("'") || start.includes('"') || start.includes('\\');
      if (!quoted && body.includes('`')) flag('backticks', 'inside a here-document');
    }
    for (const c of node.namedChildren) if (c.type !== 'file_descriptor') walk(c, ctx);
    return r;
  };

  const simpleCommand = (node: Node, ctx: Ctx, extraRedirects: Redirection[]): void => {
    const argv: ShellWord[] = [];
    const assignments: Assignment[] = [];
    const redirects: Redirection[] = [...extraRedirects];
    substStack.push([]);
    for (const c of node.namedChildren) {
      if (c.type === 'variable_assignment') assignment(c, assignments);
      else if (c.type === 'file_redirect' || c.type === 'herestring_redirect' || c.type === 'heredoc_redirect') redirects.push(redirect(c, ctx));
      else if (c.type === 'command_name') {
        const w = c.namedChildren[0];
        if (!w) throw new Unsupported('empty command name');
        argv.push(shellWord(w));
        walk(w, { stdinFed: false, fn: ctx.fn });
      } else {
        argv.push(shellWord(c));
        walk(c, { stdinFed: false, fn: ctx.fn });
      }
    }
    const substitutedCommands = substStack.pop() ?? [];
    const stdinFed = ctx.stdinFed || redirects.some((r) => r.access === 'inline');
    const cmd: SimpleCommand = { argv, assignments, redirects, stdinFed, substitutedCommands, text: node.text };
    out.commands.push(cmd);
    const name = unwrapCommand(cmd).argv[0]?.value ?? null;
    if (ctx.fn && name === ctx.fn.name) ctx.fn.recursive = true;
    for (const f of flagCommand(cmd)) flag(f.construct, f.detail);
    for (const f of judged(cmd).flags) flag(f.construct, f.detail);
    shellScript(cmd);
  };

  /** `sh -c 'SCRIPT'`: the script's commands, redirections and flags are judged as if written inline. */
  const shellScript = (cmd: SimpleCommand): void => {
    const u = unwrapCommand(cmd);
    const name = baseName(u.argv[0]);
    // Scripts of shells this command starts itself (`find -exec sh -c '...'`).
    for (const s of judged(cmd).scripts) analyzeScript('find -exec sh', s);
    if (name === null || !SHELLS.has(name)) return;
    analyzeScript(name, shellCScript(u.argv.slice(1)));
  };

  const analyzeScript = (name: string, script: string | null | undefined): void => {
    if (script === undefined) return;
    if (script === null) return flag('eval_like', `${name} -c with a script computed at run time`);
    if (depth >= MAX_SCRIPT_DEPTH) return flag('eval_like', `${name} -c nested too deeply to judge`);
    const inner = analyzeShell(script, depth + 1);
    if (!inner.ok) return flag('eval_like', `${name} -c with a script that could not be analyzed (${inner.error})`);
    out.commands.push(...inner.commands);
    out.redirects.push(...inner.redirects);
    out.assignments.push(...inner.assignments);
    out.functions.push(...inner.functions);
    out.flags.push(...inner.flags);
  };

  const walk = (node: Node, ctx: Ctx): void => {
    const t = node.type;
    if (!node.isNamed) return;
    if (LEAVES.has(t)) return;
    if (t === 'for_statement') {
      // `for f in /home/*`: the list is expanded like any argument, listing the directories its globs reach.
      for (const c of node.namedChildren) {
        if (c.type === 'variable_name' || c.type === 'do_group' || c.type === 'compound_statement') continue;
        const w = shellWord(c);
        if (w.glob) out.globWords.push(w);
      }
    }
    if (TRANSPARENT.has(t)) {
      for (const c of node.namedChildren) walk(c, ctx);
      return;
    }
    switch (t) {
      case 'pipeline': {
        // Every stage after the first reads the previous stage's output.
        node.namedChildren.forEach((c, i) => walk(c, { stdinFed: ctx.stdinFed || i > 0, fn: ctx.fn }));
        return;
      }
      case 'command':
        simpleCommand(node, ctx, []);
        return;
      case 'redirected_statement': {
        const body = node.childForFieldName('body');
        const reds: Redirection[] = [];
        for (const c of node.namedChildren) if (c.id !== body?.id) reds.push(redirect(c, ctx));
        if (body && body.type === 'command') simpleCommand(body, ctx, reds);
        else if (body) walk(body, ctx);
        return;
      }
      case 'file_redirect':
      case 'herestring_redirect':
      case 'heredoc_redirect':
        redirect(node, ctx);
        return;
      case 'variable_assignment':
        assignment(node, out.assignments);
        return;
      case 'declaration_command':
      case 'unset_command': {
        // `export A=1`, `declare -x B`, `unset C`: judged as commands named by their keyword.
        const keyword = node.children[0]?.type ?? '';
        const argv: ShellWord[] = [{ text: keyword, value: keyword, glob: false }];
        for (const c of node.namedChildren) {
          if (c.type === 'variable_assignment') assignment(c, out.assignments);
          else if (c.type === 'variable_name' && isDangerousEnvName(c.text)) flag('env_tampering', c.text);
          argv.push(shellWord(c));
          if (c.type !== 'variable_assignment') walk(c, ctx);
        }
        const decl: SimpleCommand = { argv, assignments: [], redirects: [], stdinFed: ctx.stdinFed, substitutedCommands: [], text: node.text };
        out.commands.push(decl);
        for (const f of judged(decl).flags) flag(f.construct, f.detail);
        return;
      }
      case 'function_definition': {
        const name = node.childForFieldName('name')?.text ?? '';
        const fn = { name, recursive: false };
        flag('function_definition', name);
        const body = node.childForFieldName('body');
        if (body) walk(body, { stdinFed: false, fn });
        out.functions.push(fn);
        return;
      }
      case 'command_substitution':
      case 'process_substitution': {
        const backticks = t === 'command_substitution' && node.text.startsWith('`');
        flag(backticks ? 'backticks' : (t as ShellConstruct), node.text.slice(0, 80));
        const before = out.commands.length;
        for (const c of node.namedChildren) walk(c, { stdinFed: false, fn: ctx.fn });
        const names = out.commands.slice(before).map((c) => unwrapCommand(c).argv[0]?.value ?? '?');
        for (const frame of substStack) frame.push(...names);
        return;
      }
      default:
        throw new Unsupported(`unsupported shell syntax: ${t}`);
    }
  };

  try {
    walk(parsed.root, { stdinFed: false, fn: null });
    if (isRuleOn('evaluated_words')) for (const f of evaluatedWords(parsed.root)) flag(f.construct, f.detail);
  } catch (err) {
    if (err instanceof Unsupported) return { ok: false, error: err.message };
    // Anything else (e.g. stack overflow on absurd nesting) also means "cannot judge": fail closed.
    return { ok: false, error: `analysis failed: ${err instanceof Error ? err.message : String(err)}` };
  } finally {
    substStack = [];
    parsed.dispose();
  }
  return { ok: true, ...out, empty };
}

