/**
 * A stdio server's file that is not there is a configuration error naming
 * the setting and the file, before any process starts (otherwise the task
 * only reports a failed connect, and Node's "Cannot find module" stays on
 * the server's stderr).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadedTask } from './load-suite.js';
import type { McpServerSettings } from './mcp-schema.js';
import { McpConfigError, TaskMcp } from './task-mcp.js';

const dir = mkdtempSync(join(tmpdir(), 'faultline-task-mcp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'server.mjs'), '');

const taskWith = (server: McpServerSettings): LoadedTask => ({ id: 't1', file: join(dir, 'suite.yaml'), mcp_servers: { srv: server } }) as unknown as LoadedTask;
const prepare = (server: McpServerSettings) => () => new TaskMcp(taskWith(server), { add: () => undefined } as never).prepare(dir, {});

describe('a stdio server whose file is missing', () => {
  it('names the file under ${suite_dir} that is not there', () => {
    expect(prepare({ command: 'node', args: ['${suite_dir}/missing-server.mjs', '--tools', 'echo'] })).toThrow(McpConfigError);
    expect(prepare({ command: 'node', args: ['${suite_dir}/missing-server.mjs'] })).toThrow(`${join(dir, 'suite.yaml')}: task t1: mcp_servers.srv.args.0: ${join(dir, 'missing-server.mjs')} does not exist`);
  });

  it('names the script node would run', () => {
    expect(prepare({ command: 'node', args: ['/nowhere/server.mjs'] })).toThrow('/nowhere/server.mjs does not exist');
  });

  it('accepts files that are there, options before the script, and files the task writes into its workspace', () => {
    expect(prepare({ command: 'node', args: ['${suite_dir}/server.mjs', '--state', '${workspace}/.generation'] })).not.toThrow();
    expect(prepare({ command: 'node', args: ['--import', 'tsx', 'server.ts'] })).not.toThrow();
    expect(prepare({ command: 'node', args: ['${workspace}/made-by-setup.mjs'] })).not.toThrow();
  });
});
