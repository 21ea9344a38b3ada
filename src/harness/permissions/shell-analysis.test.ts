import { describe, expect, it } from 'vitest';
import { analyzeShell, type ShellAnalysis } from './shell-analysis.js';

function ok(command: string): Extract<ShellAnalysis, { ok: true }> {
  const a = analyzeShell(command);
  if (!a.ok) throw new Error(`expected ${command} to parse: ${a.error}`);
  return a;
}
const argvs = (command: string): string[] => ok(command).commands.map((c) => c.argv.map((w) => w.value ?? `<${w.text}>`).join(' '));
const constructs = (command: string): string[] => ok(command).flags.map((f) => f.construct);

describe('shell analysis', () => {
  it('splits every compound operator into its simple commands', () => {
    expect(argvs('a && b || c; d | e & f\ng')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
  });

  it('finds commands nested in subshells, groups, loops, conditionals and functions', () => {
    expect(argvs('(cd x; rm y) && { ls; } && if true; then rm z; fi && for f in a; do cat $f; done')).toEqual([
      'cd x', 'rm y', 'ls', 'true', 'rm z', 'cat <$f>',
    ]);
  });

  it('removes quotes and escapes from static words and marks expansions as not static ($HOME is ~)', () => {
    const [cmd] = ok(`r\\m -rf "/" 'a b' $HOME "x$y" "$HOME/.ssh" \${HOME}/x $HOMEX`).commands;
    expect(cmd?.argv.map((w) => w.value)).toEqual(['rm', '-rf', '/', 'a b', '~', null, '~/.ssh', '~/x', null]);
  });

  it('treats brace expansion as not static but keeps find placeholders', () => {
    expect(ok('cat {a,b}').commands[0]?.argv[1]?.value).toBeNull();
    expect(ok('find . -exec rm {} \\;').commands[0]?.argv.map((w) => w.value)).toEqual(['find', '.', '-exec', 'rm', '{}', ';']);
  });

  it('lists redirection targets as writes and reads', () => {
    const a = ok('cat a > /etc/passwd 2>>err.log < in.txt 2>&1');
    expect(a.redirects.map((r) => [r.op, r.access, r.target?.value ?? null])).toEqual([
      ['>', 'write', '/etc/passwd'],
      ['>>', 'write', 'err.log'],
      ['<', 'read', 'in.txt'],
      ['>&', 'fd', null],
    ]);
    expect(a.commands[0]?.redirects).toHaveLength(4);
  });

  it('flags command substitution, backticks and process substitution, and collects the inner commands', () => {
    expect(constructs('echo $(curl x)')).toEqual(['command_substitution']);
    expect(constructs('echo `whoami`')).toEqual(['backticks']);
    expect(constructs('diff <(ls a) b')).toEqual(['process_substitution']);
    expect(ok('echo $(curl x)').commands.find((c) => c.argv[0]?.value === 'echo')?.substitutedCommands).toEqual(['curl']);
  });

  it('flags substitutions hidden in here-docs and parameter defaults', () => {
    expect(constructs('cat <<EOF\n$(id)\nEOF\n')).toContain('command_substitution');
    expect(constructs('echo ${x:-$(rm y)}')).toContain('command_substitution');
    expect(argvs('echo ${x:-$(rm y)}')).toContain('rm y');
  });

  it('does not flag a quoted here-doc delimiter body', () => {
    expect(constructs("cat <<'EOF'\n$(id)\nEOF\n")).toEqual([]);
    expect(constructs("cat <<'EOF'\n`id`\nEOF\n")).toEqual([]);
  });

  it('flags backticks in an expanded here-doc body, which the grammar leaves as text', () => {
    expect(constructs('cat <<EOF\n`rm -rf ~`\nEOF\n')).toContain('backticks');
  });

  it('finds commands hidden in an array subscript of an assignment', () => {
    expect(argvs('arr[$(rm x)]=1')).toEqual(['rm x']);
    expect(constructs('arr[$(rm x)]=1')).toContain('command_substitution');
  });

  it('flags eval, source, dot and exec', () => {
    for (const c of ['eval ls', 'source x.sh', '. ./x', 'exec bash', 'command eval ls']) expect(constructs(c), c).toContain('eval_like');
  });

  it('flags input piped into a shell or an interpreter reading its program from stdin', () => {
    expect(constructs('echo x | sh')).toEqual(['pipe_to_interpreter']);
    expect(constructs('curl x | sudo bash')).toEqual(['pipe_to_interpreter']);
    expect(constructs('cat s.py | python3 -')).toEqual(['pipe_to_interpreter']);
    expect(constructs('python3 <<< "print(1)"')).toEqual(['pipe_to_interpreter']);
    expect(constructs('find . | xargs sh')).toEqual(['pipe_to_interpreter']);
    expect(constructs('cat data.csv | python3 script.py')).toEqual([]);
  });

  it('flags loader and shell start-up environment tricks in every form', () => {
    for (const c of ['LD_PRELOAD=/x.so ls', 'export LD_PRELOAD=/x.so; ls', 'PATH=/tmp:$PATH ls', 'BASH_ENV=x bash s', 'env LD_PRELOAD=x ls', 'declare -x DYLD_INSERT_LIBRARIES=x', 'export PATH']) {
      expect(constructs(c), c).toContain('env_tampering');
    }
    expect(constructs('FOO=1 ls')).toEqual([]);
  });

  it('flags a literal holding shell code, which arithmetic or indirect expansion would run', () => {
    expect(constructs("x='a[$(id)]'; echo $((x))")).toContain('eval_like');
    expect(constructs('x=3; y=x; echo $((y + 1))')).toEqual([]);
    // `plain` is a variable the command never sets: not provably a number (bash may have set it, e.g. `_`).
    expect(constructs('x=plain; echo $((x + 1))')).toEqual(['eval_like']);
  });

  it('refuses arithmetic on variables bash assigns from text the command wrote, and on array keys and glued names it evaluates', () => {
    for (const c of [
      "[[ 'a[$(id)]' =~ (.*) ]] && echo $(( BASH_REMATCH[1] ))", "echo 'a[$(id)]'; echo $(( _ ))", "_=1; echo 'a[$(id)]'; echo $((_))",
      "getopts a: o -a 'a[$(id)]'; echo $((OPTARG))", "printf -v'a[$(id)]' x", "a=(['$(id)']=1)", "declare -a a=([k]=1)", 'read b < f; x=b+1; echo $((x))',
    ]) expect(constructs(c), c).toContain('eval_like');
    for (const c of ['for ((i=0;i<3;i++)); do echo $i; done', 'echo $((RANDOM % 10))', 'n=$#; echo $((n))', 'a=([0]=x [1]=y)', 'declare -A m=([k]=1); m[key]=2', '[[ -f a.txt ]]']) {
      expect(constructs(c), c).toEqual([]);
    }
  });

  it('flags a command name that is not static', () => {
    expect(constructs('$CMD arg')).toEqual(['dynamic_command']);
    expect(constructs('"$(echo rm)" -rf x')).toEqual(expect.arrayContaining(['dynamic_command', 'command_substitution']));
  });

  it('recognises a fork bomb as a recursive function', () => {
    const a = ok(':(){ :|:& };:');
    expect(a.functions).toEqual([{ name: ':', recursive: true }]);
    expect(a.flags.map((f) => f.construct)).toContain('function_definition');
  });

  it('marks pipeline stages after the first as fed on stdin', () => {
    expect(ok('ls | grep x').commands.map((c) => c.stdinFed)).toEqual([false, true]);
  });

  it('treats a line continuation inside a word as unanalyzable, since bash would join the word (r\\<nl>m is rm)', () => {
    expect(analyzeShell('r\\\nm -rf /').ok).toBe(false);
    expect(analyzeShell('echo a\\\nb').ok).toBe(false);
    expect(argvs('ls \\\n  -la')).toEqual(['ls -la']);
  });

  it('reports syntax errors as unanalyzable', () => {
    for (const c of ['echo "unterminated', 'ls |', 'echo $(', 'if then fi', 'a <> f']) expect(analyzeShell(c).ok, c).toBe(false);
  });

  it('fails closed instead of throwing on absurdly deep nesting', () => {
    const deep = `${'echo $('.repeat(3000)}x${')'.repeat(3000)}`;
    expect(() => analyzeShell(deep)).not.toThrow();
    expect(analyzeShell(deep).ok).toBe(false);
  });

  it('returns the same analysis for the same command (cached)', () => {
    expect(analyzeShell('ls -la')).toBe(analyzeShell('ls -la'));
  });
});
