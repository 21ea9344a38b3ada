/** Generic calls a harness has no tool for, sent to its shell tool: the command, and arguments quoted so the shell reads them back as given. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shell-forms.js';
import { shellMapped, toolMapper } from './tool-map.js';

const tool = (name: string, properties: Record<string, unknown>) => ({ name, description: '', input_schema: { type: 'object', properties } });
/** Claude Code's kind of tool set: Read and Bash, no LS, Grep or Glob. */
const CLAUDE_LIKE = [tool('Read', { file_path: { type: 'string' } }), tool('Bash', { command: { type: 'string' }, timeout: { type: 'number' } })];

describe('generic calls on the shell', () => {
  it('quotes any text so a POSIX shell reads it back byte for byte', () => {
    for (const text of ["it's", 'a b', '$(touch pwned)', '`id`; rm -rf /', "'; echo x '", 'tab\there', 'new\nline', '*.txt', '"double"', '\\back']) {
      expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`], { encoding: 'utf8' })).toBe(text);
    }
  });

  it('maps ls, grep, glob and sleep onto the shell tool when the harness has no tool for them, and says which', () => {
    const map = toolMapper(CLAUDE_LIKE);
    expect(map('ls', {})).toEqual({ name: 'Bash', input: { command: "ls -la -- '.'" } });
    expect(map('ls', { path: 'notes' })).toEqual({ name: 'Bash', input: { command: "ls -la -- 'notes'" } });
    expect(map('grep', { pattern: "TODO'; touch x; '" })).toEqual({ name: 'Bash', input: { command: `grep -rn -e 'TODO'\\''; touch x; '\\''' -- '.'` } });
    expect(map('glob', { pattern: '*.txt' })).toEqual({ name: 'Bash', input: { command: "find '.' -path '*/*.txt'" } });
    expect(map('sleep', { ms: 20000 })).toEqual({ name: 'Bash', input: { command: 'sleep 20' } });
    // Input the generic tool does not take stays unmapped (and so an unknown tool to the harness).
    expect(map('sleep', { ms: '20; id' })).toEqual({ name: 'sleep', input: { ms: '20; id' } });
    expect(shellMapped(CLAUDE_LIKE.map((t) => t.name), ['read', 'ls', 'sleep', 'find_config_file'])).toEqual(['ls', 'sleep']);
  });

  it("keeps the harness's own tool when it has one, and leaves the name alone without a shell", () => {
    expect(toolMapper([...CLAUDE_LIKE, tool('LS', { path: { type: 'string' } })])('ls', { path: 'a' })).toEqual({ name: 'LS', input: { path: 'a' } });
    expect(toolMapper([CLAUDE_LIKE[0]!])('ls', {})).toEqual({ name: 'ls', input: {} });
    expect(shellMapped(['Read'], ['ls'])).toEqual([]);
  });

  it('runs the mapped grep as the shell would: the pattern is one argument, never code', () => {
    const { command } = toolMapper(CLAUDE_LIKE)('grep', { pattern: '$(echo hacked)', path: '/dev/null' }).input as { command: string };
    // grep finds nothing in /dev/null (exit 1) and nothing was substituted or run.
    expect(() => execFileSync('sh', ['-c', command], { encoding: 'utf8' })).toThrow(/Command failed/);
    expect(command).toContain("'$(echo hacked)'");
  });
});
