import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.js';
import type { CliIo } from '../../src/cli/io.js';

function io(): CliIo & { out: string[] } {
  const out: string[] = [];
  return { out, stdout: (t) => void out.push(t), stderr: () => undefined, env: {}, cwd: process.cwd(), isTTY: false };
}

describe('faultline lint-tools', () => {
  it('passes the shipped suites with deferred tools (no resident/deferred pair shares 4+ leading characters)', async () => {
    // suites/faults/green-but-broken holds deliberately broken harness set-ups; the collision there is checked below.
    const shipped = readdirSync('suites/faults').filter((f) => f !== 'green-but-broken' && !f.endsWith('.mjs')).map((f) => join('suites/faults', f));
    const cli = io();
    expect(await run(['lint-tools', ...shipped, 'suites/controls'], cli)).toBe(0);
    expect(cli.out.join('')).toMatch(/[1-9]\d* tool sets? checked, 0 prefix collisions/);
  });

  it('finds the collision the green-but-broken prefix-collapse scenario is built on', async () => {
    const cli = io();
    expect(await run(['lint-tools', 'suites/faults/green-but-broken'], cli)).toBe(1);
    expect(cli.out.join('')).toContain('gbb-010-prefix-collapse: resident "read" and deferred "read_many" share the prefix "read"');
  });

  it('reports a pair and exits 1 when the shared prefix reaches the minimum', async () => {
    const cli = io();
    expect(await run(['lint-tools', '--deferred', 'explode', '--min', '1'], cli)).toBe(1);
    expect(cli.out.join('')).toContain('resident "edit" and deferred "explode" share the prefix "e"');
  });

  it('lists MCP servers and compares their names after mcp__ and the server, as the model chooses', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faultline-lint-mcp-'));
    try {
      const server = (name: string, tools: string, deferred: boolean) =>
        `      ${name}:\n        command: node\n        args: [${JSON.stringify(resolve('suites/faults/mcp/fault-server.mjs'))}, "--tools", "${tools}"]\n        deferred: ${deferred}\n`;
      const suite = (servers: string) => `tasks:\n  - id: t\n    prompt: p\n    tools: [read]\n    script: [{ text: ok }]\n    mcp_servers:\n${servers}`;
      // Every pair shares "mcp__", and each server's tools share their server part: none of that counts.
      writeFileSync(join(dir, 'distinct.yaml'), suite(server('alpha', 'echo,generation', false) + server('beta', 'echo,generation', true)));
      const ok = io();
      expect(await run(['lint-tools', join(dir, 'distinct.yaml')], ok)).toBe(0);
      expect(ok.out.join('')).toContain('1 tool set checked, 0 prefix collisions');
      // Server names that share 5 characters do collide: the model writing mcp__files... can land on either.
      writeFileSync(join(dir, 'close.yaml'), suite(server('files', 'echo', false) + server('filesystem', 'echo', true)));
      const bad = io();
      expect(await run(['lint-tools', join(dir, 'close.yaml')], bad)).toBe(1);
      expect(bad.out.join('')).toContain('resident "mcp__files__echo" and deferred "mcp__filesystem__echo" share the prefix "files" after "mcp__"');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
