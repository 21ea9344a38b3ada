/** `faultline run <suites...>`: run suites through the harness and write a JSONL trace. */
import type { Command } from 'commander';
import { Option } from 'commander';
import { join } from 'node:path';
import { JsonlSink } from '../../events/sink.js';
import { loadSuites, SuiteError } from '../../suites/load-suite.js';
import { mockModelSource } from '../../suites/mock-source.js';
import { colorsFor, progressBar, summaryText, taskLine } from '../../suites/run-output.js';
import { newRunId, runSuite } from '../../suites/run-suite.js';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../program.js';

interface RunOptions {
  provider: string;
  wire?: 'anthropic' | 'openai';
  out?: string;
  concurrency: string;
  filter?: string;
  keepWorkspaces?: boolean;
}

export function registerRun(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('run')
    .description('run suite tasks through the harness and write every step to a JSONL trace (exit 1 if any task fails)')
    .argument('<suites...>', 'suite files (.yaml) or directories of them')
    .addOption(new Option('--provider <name>', 'model provider').choices(['mock']).default('mock'))
    .addOption(new Option('--wire <format>', 'wire format the mock speaks (default: each task\'s `wire`, else anthropic)').choices(['anthropic', 'openai']))
    .option('--out <file>', 'trace file to write (default: traces/<run-id>.jsonl)')
    .option('-j, --concurrency <n>', 'tasks run at the same time', '4')
    .option('--filter <text>', 'only tasks whose id contains this text')
    .option('--keep-workspaces', 'keep each task\'s temporary workspace and print its path')
    .addHelpText('after', '\nExamples:\n  faultline run suites/demo\n  faultline run suites/demo --wire openai -j 8 --out traces/demo.jsonl\n')
    .action(async (paths: string[], opts: RunOptions) => {
      const concurrency = Number(opts.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`-j must be a positive integer, got "${opts.concurrency}"`);
      let tasks;
      try {
        tasks = loadSuites(paths);
      } catch (error) {
        if (error instanceof SuiteError) throw new CliError(`invalid suite:\n${error.message}`);
        throw error;
      }
      if (opts.filter) tasks = tasks.filter((t) => t.id.includes(opts.filter!));
      if (tasks.length === 0) throw new CliError(`no task id contains "${opts.filter}"`);

      const runId = newRunId();
      const tracePath = opts.out ?? join(io.cwd, 'traces', `${runId}.jsonl`);
      const sink = new JsonlSink(tracePath, { onError: (e) => io.stderr(`faultline: trace write failed (${String(e)}); later lines may be lost\n`) });
      const c = colorsFor(io.isTTY, io.env);
      const source = mockModelSource({ wire: opts.wire });
      const abort = new AbortController();
      const onSigint = () => abort.abort('sigint');
      process.once('SIGINT', onSigint);
      let failing = 0;
      if (io.isTTY) io.stdout(progressBar(0, tasks.length, 0, c));
      try {
        const summary = await runSuite({
          tasks,
          sink,
          source,
          runId,
          concurrency,
          keepWorkspaces: opts.keepWorkspaces,
          signal: abort.signal,
          onTaskEnd: (outcome, done, total) => {
            if (outcome.outcome !== 'passed') failing++;
            io.stdout(io.isTTY ? progressBar(done, total, failing, c) : taskLine(outcome, done, total, c));
            if (outcome.workspace) io.stdout(`  workspace: ${outcome.workspace}\n`);
          },
        });
        if (io.isTTY) io.stdout('\n');
        sink.close();
        io.stdout(summaryText(summary, tracePath, c));
        const lost = sink.stats();
        if (lost.failedWrites > 0) io.stderr(`faultline: ${lost.failedWrites} trace lines could not be written: ${lost.firstError}\n`);
        result.exitCode = summary.passed === summary.outcomes.length && lost.failedWrites === 0 ? 0 : 1;
      } finally {
        process.removeListener('SIGINT', onSigint);
        sink.close();
        await source.close();
      }
    });
}
