/**
 * PreToolUse / PostToolUse hooks in the pipeline, through the real SDK + msw:
 * the hook runs before permission (so its allow can lift an ask), a rewrite
 * is announced only when the input really changed, and a broken hook never
 * crashes the harness.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { HookSet } from '../../src/harness/hooks/types.js';
import { HOOK_MODIFIED_NOTICE } from '../../src/harness/pipeline/hook-notice.js';
import { stopMockHub } from '../../src/mock/msw-hub.js';
import { runPipeline } from './run-pipeline.js';

afterAll(() => stopMockHub());

const touch = [{ tool_use: [{ name: 'bash', input: { command: 'touch made.txt' } }] }, { text: 'done' }];

describe('PreToolUse hook', () => {
  it('runs before the permission stage, so its allow lets a call through that would otherwise be refused as an ask', async () => {
    const order: string[] = [];
    const hooks: HookSet = {
      preToolUse: (e) => {
        order.push(`hook:${e.tool}`);
        return { decision: 'allow', reason: 'trusted in this repo' };
      },
    };
    const withHook = await runPipeline(touch, { mode: 'default', hooks });
    expect(order).toEqual(['hook:bash']);
    expect(withHook.of('hook')).toMatchObject([{ hook: 'pre_tool_use', effect: 'decision', tool: 'bash' }]);
    expect(withHook.of('permission_decision')[0]).toMatchObject({ decision: 'allow', source: 'hook', needed_prompt: false });
    expect(existsSync(join(withHook.workspace, 'made.txt'))).toBe(true);
    // The hook event comes before the permission decision in the trace.
    const names = withHook.events.map((e) => e.event);
    expect(names.indexOf('hook')).toBeLessThan(names.indexOf('permission_decision'));

    const without = await runPipeline(touch, { mode: 'default' });
    expect(without.of('permission_decision')[0]).toMatchObject({ decision: 'deny', source: 'default', needed_prompt: true });
    expect(existsSync(join(without.workspace, 'made.txt'))).toBe(false);
  });

  it('cannot allow what a safety step refuses: a deny rule beats the hook allow', async () => {
    const run = await runPipeline(touch, {
      mode: 'default',
      rules: [{ id: 'no-touch', effect: 'deny', tool: 'bash', pattern: 'touch *' }],
      hooks: { preToolUse: () => ({ decision: 'allow' }) },
    });
    expect(run.of('permission_decision')[0]).toMatchObject({ decision: 'deny', source: 'deny_rule' });
  });

  it('blocks a call with hook_blocked and the hook reason', async () => {
    const run = await runPipeline(touch, { hooks: { preToolUse: () => ({ block: 'no shell on Fridays' }) } });
    expect(run.of('tool_failure')[0]).toMatchObject({ failure_kind: 'hook_blocked', error_code: 'hook_block' });
    expect(run.of('permission_decision')).toEqual([]);
    expect(run.results()[0]!.content).toMatch(/no shell on Fridays/);
  });

  it('prepends the modified-arguments notice only when the hook really changed the input, without echoing the values', async () => {
    const script = [{ tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }] }, { text: 'done' }];
    const files = { 'a.txt': 'alpha\n', 'redacted-copy.txt': 'beta\n' };
    // A fresh but equal object (the usual hook shape): no notice.
    const same = await runPipeline(script, { files, hooks: { preToolUse: (e) => ({ updatedInput: JSON.parse(JSON.stringify(e.input)) }) } });
    expect(same.results()[0]!.content).not.toContain(HOOK_MODIFIED_NOTICE);
    expect(same.of('hook')[0]).toMatchObject({ effect: 'none' });

    const changed = await runPipeline(script, { files, hooks: { preToolUse: () => ({ updatedInput: { file_path: 'redacted-copy.txt' } }) } });
    const text = changed.results()[0]!.content;
    expect(text.startsWith(HOOK_MODIFIED_NOTICE)).toBe(true);
    expect(text).toContain('beta');
    expect(text).not.toContain('redacted-copy');
    expect(changed.of('hook')[0]).toMatchObject({ effect: 'input_modified' });
  });

  it('blocks the call (never crashes) when the hook throws or hangs, and the turn goes on', async () => {
    const script = [
      { tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }, { name: 'ls', input: {} }] },
      { text: 'done' },
    ];
    const throwing = await runPipeline(script, {
      files: { 'a.txt': 'alpha\n' },
      hooks: { preToolUse: (e) => { if (e.tool === 'read') throw new Error('bug in hook'); } },
    });
    expect(throwing.of('tool_failure')).toMatchObject([{ tool: 'read', failure_kind: 'hook_blocked', error_code: 'hook_error' }]);
    expect(throwing.of('tool_success')).toMatchObject([{ tool: 'ls' }]);
    expect(throwing.result.stop).toBe('end_turn');

    const hanging = await runPipeline(script, {
      files: { 'a.txt': 'alpha\n' },
      hooks: { timeoutMs: 50, preToolUse: (e) => (e.tool === 'read' ? new Promise(() => undefined) : undefined) },
    });
    expect(hanging.of('tool_failure')).toMatchObject([{ tool: 'read', failure_kind: 'hook_blocked', error_code: 'hook_timeout' }]);
    expect(hanging.of('hook').map((h) => `${h.tool}:${h.effect}`).sort()).toEqual(['ls:none', 'read:blocked']);
  });
});

describe('PostToolUse hook', () => {
  it('rewrites a built-in result after truncation, and a throwing hook leaves the output as it was', async () => {
    const script = [{ tool_use: [{ name: 'read', input: { file_path: 'a.txt' } }] }, { text: 'done' }];
    const files = { 'a.txt': 'token=abc123\n' };
    const redacting = await runPipeline(script, { files, hooks: { postToolUse: (e) => ({ output: e.output.replace(/abc123/g, '[redacted]') }) } });
    expect(redacting.results()[0]!.content).toContain('token=[redacted]');
    expect(redacting.of('hook')[0]).toMatchObject({ hook: 'post_tool_use', effect: 'output_modified' });

    const broken = await runPipeline(script, { files, hooks: { postToolUse: () => { throw new Error('oops'); } } });
    expect(broken.results()[0]!.content).toContain('token=abc123');
    expect(broken.of('hook')[0]).toMatchObject({ effect: 'failed' });
    expect(broken.of('tool_success')).toHaveLength(1);
  });
});

describe('hooks and the tool body', () => {
  it('runs the tool with the rewritten input', async () => {
    const run = await runPipeline(
      [{ tool_use: [{ name: 'write', input: { file_path: 'out.txt', content: 'from model' } }] }, { text: 'done' }],
      { hooks: { preToolUse: (e) => ({ updatedInput: { ...(e.input as object), content: 'from hook' } }) } },
    );
    expect(readFileSync(join(run.workspace, 'out.txt'), 'utf8')).toBe('from hook');
  });
});

describe('PostToolUse hook on an MCP tool', () => {
  it('sees the raw, untruncated output (a redaction hook must see what truncation hides), and its rewrite is limited again', async () => {
    const { z } = await import('zod');
    const { ToolRegistry } = await import('../../src/harness/tools/registry.js');
    const { builtinTools } = await import('../../src/harness/tools/builtin.js');
    const raw = `${'a'.repeat(20_000)} SECRET-IN-THE-MIDDLE ${'b'.repeat(20_000)}`;
    const mcp = {
      name: 'mcp__docs__fetch',
      description: 'Fetches a document.',
      inputSchema: z.object({}),
      readOnly: true,
      isConcurrencySafe: () => true,
      execute: async () => ({ content: raw }),
    };
    const seen: { tool: string; length: number; source: string }[] = [];
    const hooks: HookSet = {
      postToolUse: (e) => {
        seen.push({ tool: e.tool, length: e.output.length, source: e.source });
        return { output: e.output.replace('SECRET-IN-THE-MIDDLE', '[redacted]') };
      },
    };
    const run = await runPipeline(
      [{ tool_use: [{ name: 'mcp__docs__fetch', id: 'toolu_mcp', input: {} }, { name: 'bash', id: 'toolu_bash', input: { command: 'cat big.txt' } }] }, { text: 'done' }],
      { registry: new ToolRegistry([...builtinTools(), mcp]), hooks, mode: 'bypass', files: { 'big.txt': raw } },
    );
    expect(seen.find((s) => s.tool === 'mcp__docs__fetch')).toMatchObject({ length: raw.length, source: 'mcp' });
    expect(seen.find((s) => s.tool === 'bash')!.length).toBeLessThanOrEqual(30_400); // built-in: the truncated text
    const spill = readFileSync(join(run.workspace, '.faultline/spill/t1-toolu_mcp.txt'), 'utf8');
    expect(spill).toContain('[redacted]');
    expect(spill).not.toContain('SECRET-IN-THE-MIDDLE');
    expect(run.of('tool_success').find((s) => s.tool === 'mcp__docs__fetch')).toMatchObject({ truncated: true, spilled: true });
  });
});
