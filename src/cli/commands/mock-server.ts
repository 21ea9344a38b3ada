/**
 * `faultline mock-server --suite <file> --task <id>`: serves one task's script
 * (faults included) on 127.0.0.1 as `/v1/messages`, `/v1/chat/completions`
 * and `/v1/responses`, so a harness in any language can be pointed at it.
 * Side requests (titles, probes, count_tokens, models) are answered without
 * taking a turn. Runs until Ctrl-C; logs one line per request to stderr.
 * `faultline lab` runs a harness against it and judges what it sends.
 */
import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { Option } from 'commander';
import type { LoopbackServer } from '../../mock/loopback-server.js';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { onEndingSignals } from '../stop-on-signal.js';

interface MockServerOptions {
  suite: string;
  task: string;
  port: string;
  wire?: 'anthropic' | 'openai' | 'responses' | 'gemini';
  json?: boolean;
}

/** Start the server for one task and print how to reach it (separate from the wait, for tests). */
export async function startTaskServer(opts: MockServerOptions, io: CliIo): Promise<LoopbackServer> {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new CliError(`--port must be 0..65535, got "${opts.port}"`);
  const [{ startLoopbackServer }, { loadSuiteFileForCli }, { toolMapper }, { errorAnswer }] = await Promise.all([
    import('../../mock/loopback-server.js'),
    import('../load-suites.js'),
    import('../../mock/lab/tool-map.js'),
    import('../../mock/lab/session-view.js'),
  ]);
  if (!existsSync(opts.suite)) throw new CliError(`${opts.suite}: no such suite file`);
  const { tasks } = loadSuiteFileForCli(opts.suite, io);
  const task = tasks.find((t) => t.id === opts.task);
  if (!task) throw new CliError(`no task "${opts.task}" in ${opts.suite} (tasks: ${tasks.map((t) => t.id).join(', ')})`);
  if (!task.script) throw new CliError(`task ${task.id} has no script`);
  const server = await startLoopbackServer({
    port,
    script: task.script,
    // The same way as the lab: generic script tools (read, ls, ...) become the harness's own, and rules read errors as the lab does.
    defaultSession: { toolMap: (tools) => toolMapper(tools), errorResult: errorAnswer },
    onRequest: (_session, wire, r) =>
      io.stderr(
        r.side !== null
          ? `${wire} side request (${r.side}) ${r.method} ${r.path} -> ${r.status}\n`
          : `${wire} turn ${r.turn ?? '-'} attempt ${r.attempt} -> ${r.status}${r.request?.stream ? ' (stream)' : ''}\n`,
      ),
  }).catch((error: unknown) => {
    throw listenError(error, port);
  });
  const wires = opts.wire ? [opts.wire] : ['anthropic', 'openai', 'responses', 'gemini'];
  if (opts.json) {
    // One JSON line a script can read before the server's request log starts.
    const urls = { anthropic: server.origin, openai: `${server.origin}/v1`, responses: `${server.origin}/v1`, gemini: server.origin };
    io.stdout(JSON.stringify({ format_version: 1, task_id: task.id, origin: server.origin, port: Number(new URL(server.origin).port), base_urls: Object.fromEntries(wires.map((w) => [w, urls[w as keyof typeof urls]])) }) + '\n');
    return server;
  }
  io.stdout(`faultline mock-server: task ${task.id} on ${server.origin} (127.0.0.1 only)\n`);
  if (wires.includes('anthropic')) io.stdout(`  anthropic base URL: ${server.origin}        (POST /v1/messages)\n`);
  if (wires.includes('openai')) io.stdout(`  openai base URL:    ${server.origin}/v1     (POST /v1/chat/completions)\n`);
  if (wires.includes('responses')) io.stdout(`  responses base URL: ${server.origin}/v1     (POST /v1/responses)\n`);
  if (wires.includes('gemini')) io.stdout(`  gemini base URL:    ${server.origin}        (POST /v1beta/models/{model}:generateContent)\n`);
  io.stdout('  faults with `times` count attempts per turn for the life of the server. Ctrl-C to stop.\n');
  return server;
}

/** A port that cannot be had is the user's to change (exit 2), not a crash. */
function listenError(error: unknown, port: number): unknown {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'EADDRINUSE') return new CliError(`port ${port} on 127.0.0.1 is already in use: choose another with --port (0 picks a free one)`);
  if (code === 'EACCES') return new CliError(`port ${port} on 127.0.0.1 needs privileges this process lacks: choose a port above 1023 with --port (0 picks a free one)`);
  return error;
}

export function registerMockServer(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('mock-server')
    .description("serve one task's scripted model (with its faults) on 127.0.0.1 for any harness to call; runs until Ctrl-C")
    .requiredOption('--suite <file>', 'suite file (.yaml)')
    .requiredOption('--task <id>', 'task id in the suite')
    .option('--port <n>', 'port (0 picks a free one)', '0')
    .addOption(new Option('--wire <format>', 'only print this wire\'s base URL (all four are served)').choices(['anthropic', 'openai', 'responses', 'gemini']))
    .option('--json', 'print where it listens as one JSON line (origin, port, base URLs)')
    .addHelpText('after', '\nExample:\n  faultline mock-server --suite suites/faults/protocol/006-rate-limited-429-retry-after.yaml --task protocol-006-rate-limited-429-retry-after-ms --port 8787\n  ANTHROPIC_BASE_URL=http://127.0.0.1:8787 your-harness ...\n')
    .action(async (opts: MockServerOptions) => {
      const server = await startTaskServer(opts, io);
      // Ctrl-C, SIGTERM or SIGHUP (its terminal went away) closes the server and its connections before the exit.
      await new Promise<void>((resolve) => {
        const remove = onEndingSignals(() => {
          remove();
          resolve();
        });
      });
      await server.close();
      result.exitCode = 0;
    });
}
