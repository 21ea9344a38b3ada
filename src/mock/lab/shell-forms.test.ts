/** Generic calls a harness has no tool for, sent to its shell tool: the command, and arguments quoted so the shell reads them back as given. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { shellQuote } from './shell-forms.js';
import { respond } from '../respond.js';
import { ModelScript } from '../script.js';
import type { RecordedRequest } from '../session.js';
import { runChecks } from './run-checks.js';
import { sessionView } from './session-view.js';
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

describe('generic calls on a shell-only harness, through the mock and the checks', () => {
  const body = (messages: object[]) => JSON.stringify({ model: 'm', max_tokens: 100, tools: CLAUDE_LIKE, messages });
  const script = ModelScript.parse([{ tool_use: [{ name: 'sleep', input: { ms: 20000 } }, { name: 'ls', input: {} }] }, { text: 'done' }]);

  it('issues sleep and ls as shell commands, and an answered shell call is no hallucinated tool', () => {
    const first = respond({ wire: 'anthropic', bodyText: body([{ role: 'user', content: 'go' }]), script, sessionId: 's', toolMap: (tools) => toolMapper(tools) });
    const calls = (JSON.parse(first.reply.body) as { content: Array<{ type: string; id: string; name: string; input: unknown }> }).content.filter((b) => b.type === 'tool_use');
    expect(calls.map((c) => [c.name, c.input])).toEqual([['Bash', { command: 'sleep 20' }], ['Bash', { command: "ls -la -- '.'" }]]);
    const answered = body([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: calls },
      { role: 'user', content: calls.map((c) => ({ type: 'tool_result', tool_use_id: c.id, content: c === calls[0] ? '(slept 20 s)' : 'notes.txt' })) },
    ]);
    const records = [first, respond({ wire: 'anthropic', bodyText: answered, script, sessionId: 's', toolMap: (tools) => toolMapper(tools) })].map((r, i) => ({
      status: r.reply.status, turn: r.turn, request: r.request, bodyBytes: 0, attempt: 1, receivedAt: i * 100, answeredAt: i * 100 + 1, wire: 'anthropic' as const, method: 'POST', path: '/v1/messages', side: null, said: r.said, fault: null, rejected: null, bodyText: i === 0 ? body([{ role: 'user', content: 'go' }]) : answered,
    }));
    const tally = runChecks(sessionView(records as RecordedRequest[], { exitCode: 0, timedOut: false, scriptCompleted: true })).find((t) => t.check === 'hallucinated_tool_unanswered')!;
    expect(tally.violations).toEqual([]);
  });

  it('leaves sleep unmapped on a harness with neither a sleep nor a shell tool: a crash on it is hallucinated_tool_unanswered', () => {
    const readOnly = [CLAUDE_LIKE[0]!];
    const bodyText = JSON.stringify({ model: 'm', max_tokens: 100, tools: readOnly, messages: [{ role: 'user', content: 'go' }] });
    const first = respond({ wire: 'anthropic', bodyText, script, sessionId: 's', toolMap: (tools) => toolMapper(tools) });
    expect(first.said?.content.filter((b) => b.type === 'tool_use').map((b) => (b.type === 'tool_use' ? b.name : ''))).toEqual(['sleep', 'ls']);
    const record = { status: 200, turn: first.turn, request: first.request, bodyBytes: 0, attempt: 1, receivedAt: 0, answeredAt: 1, wire: 'anthropic' as const, method: 'POST', path: '/v1/messages', side: null, said: first.said, fault: null, rejected: null, bodyText };
    const tally = runChecks(sessionView([record as RecordedRequest], { exitCode: 1, timedOut: false, scriptCompleted: false })).find((t) => t.check === 'hallucinated_tool_unanswered')!;
    expect(tally.violations.map((v) => v.detail).join('\n')).toContain("the script's generic sleep, which matched none of the harness's tools");
  });
});
