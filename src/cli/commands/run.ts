/** `faultline run <suites...>`: run suites through the harness and write a JSONL trace. */
import { withMcpNames } from '../../events/private-names.js';
import type { Command } from 'commander';
import { Option } from 'commander';
import { join } from 'node:path';
import type { LiveProvider } from '../../suites/live-source.js';
import type { LoadedTask } from '../../suites/load-suite.js';
import { plural } from '../../report/plural.js';
import { CliError, type CliIo } from '../io.js';
import { loadGrammarEarly } from '../early-grammar.js';
import { listenForRunSignals } from '../run-signals.js';
import type { CommandResult } from '../command-result.js';

/**
 * The --provider choices: 'mock' and suites/live-source's LIVE_PROVIDERS, in
 * that order. Written out because live-source loads both provider SDKs, which
 * registering the command must not; tests/cli/lazy-imports.test.ts checks the
 * two lists agree.
 */
export const PROVIDER_CHOICES = ['mock', 'anthropic', 'openai', 'openai-responses', 'openai-compatible', 'gemini'] as const satisfies readonly ('mock' | LiveProvider)[];

interface RunOptions {
  provider: 'mock' | LiveProvider;
  model?: string;
  baseUrl?: string;
  strict?: boolean;
  stream?: boolean;
  repeat: string;
  record?: string;
  replay?: string;
  wire?: 'anthropic' | 'openai' | 'responses' | 'gemini';
  transport?: 'memory' | 'http';
  mcpNames?: 'private' | 'verbatim';
  out?: string;
  concurrency: string;
  workers?: string;
  filter?: string;
  shard?: string;
  logicalRunId?: string;
  keepWorkspaces?: boolean;
  workspaceDir?: string;
  report?: boolean;
  sandbox?: 'required' | 'auto' | 'off';
  junit?: string;
  json?: boolean;
  contextWindow?: string;
  compactAt?: string;
  contextManager?: boolean;
  promptCache?: boolean;
  streamIdleTimeout?: string;
  firstByteTimeout?: string;
}

/** Where the run's workspaces go: --workspace-dir, else /dev/shm when workspace-tmpfs.ts finds it safe, else the temp directory. */
async function workspacePlace(opts: RunOptions, tasks: LoadedTask[], concurrency: number): Promise<{ dir?: string; fallback?: boolean; note?: string }> {
  if (opts.workspaceDir !== undefined) return { dir: opts.workspaceDir };
  const { runWorkspaceTmpfs } = await import('../../suites/workspace-tmpfs.js');
  const choice = runWorkspaceTmpfs({ tasks, keepWorkspaces: opts.keepWorkspaces === true, concurrency });
  // Said at the end of the run: the user did not ask for this place, so they are told it and why.
  return choice.dir === null ? {} : { dir: choice.dir, fallback: true, note: `${choice.reason} (--workspace-dir or TMPDIR chooses another place)` };
}

export function registerRun(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('run')
    .description('run suite tasks through the harness and write every step to a JSONL trace (exit 1 if any task fails)')
    .argument('<suites...>', 'suite files (.yaml), or directories searched for them (node_modules and dot folders skipped; a YAML file there is a suite when it has a top-level tasks: or suite: key)')
    .addOption(new Option('--provider <name>', 'model provider; live keys come from ANTHROPIC_API_KEY / OPENAI_API_KEY / GEMINI_API_KEY (openai-compatible: optional OPENAI_COMPATIBLE_API_KEY)').choices(PROVIDER_CHOICES).default('mock'))
    .option('--model <name>', 'model id for a live provider, e.g. claude-sonnet-4-5 or gpt-4.1-mini')
    .option('--base-url <url>', 'provider base URL (required for openai-compatible, e.g. http://127.0.0.1:11434/v1; gemini: default GOOGLE_GEMINI_BASE_URL)')
    .option('--strict', 'strict tool use on a live provider: the wire\'s strict schema subset plus strict: true (default off)')
    .option('--stream', 'stream responses (SSE) from the provider or the mock (default: the task\'s `stream`, else off)')
    .option('--repeat <k>', 'run each task k times and report pass@1 and pass^k per task', '1')
    .option('--record <dir>', 'store every model exchange (neutral request + response, no keys) under <dir>')
    .option('--replay <dir>', 'play a recording back instead of calling a provider (no key needed)')
    .addOption(new Option('--wire <format>', 'wire format the mock speaks to tasks that do not pin one with `wire:` (pinned tasks keep theirs, and the run says so): anthropic (Messages), openai (Chat Completions), responses (OpenAI Responses) or gemini (Gemini generateContent); default anthropic').choices(['anthropic', 'openai', 'responses', 'gemini']))
    .addOption(new Option('--transport <kind>', 'how the SDK clients reach the mock, for every task that does not pin `transport:` (pinned tasks keep theirs, and the run says so): memory (an in-process fetch, no socket; default) or http (the loopback server on 127.0.0.1)').choices(['memory', 'http']))
    .option('--out <file>', 'trace file to write (default: traces/<run-id>.jsonl)')
    .addOption(new Option('--mcp-names <mode>', 'MCP server and tool names in the trace: private (hashed, the default: they name your services) or verbatim').choices(['private', 'verbatim']).default('private'))
    .option('-j, --concurrency <n>', 'tasks run at the same time', '4')
    .option('--workers <n>', 'worker threads the tasks are spread over, -j in flight across them all (default: one per two cores, at most 8, for runs of 200 sessions or more, else 1; 1 runs everything on the main thread). Mock and replay runs only: a live provider or --record runs on one thread')
    .option('--filter <text>', 'only tasks whose id contains this text')
    .option('--shard <i/n>', 'run only shard i of n: a balanced slice of the tasks chosen by id hash, the same on every machine and run (after --filter; repeats stay with their task)')
    .option('--logical-run-id <id>', 'id shared by the shards of one run, so `report` and `diff` merge them (default with --shard: suite-<hash of the whole suite>)')
    .option('--keep-workspaces', 'keep each task\'s temporary workspace and print its path')
    .option('--workspace-dir <dir>', 'directory the task workspaces are made in (default: /dev/shm when it is a tmpfs, not noexec, with 1 GiB and more free, and no task has bash, a setup script, hooks, modules or MCP servers: RAM saves a big suite the disk work of making and removing them; else, or with TMPDIR/TMP/TEMP set or --keep-workspaces, the system temp directory)')
    .option('--report', 'print the report of this run\'s trace at the end (as `faultline report` would)')
    .option('--json', 'print the result as one JSON document on stdout (task lines and the summary go to stderr)')
    .option('--junit <file>', 'also write JUnit XML for CI: a test case per task (and repeat), a failure with each failed expectation')
    .addOption(new Option('--sandbox <mode>', 'run bash in a bubblewrap OS sandbox: required (fail without it), auto (when it works here), off (default: each task\'s `sandbox`, else auto)').choices(['required', 'auto', 'off']))
    .option('--context-window <tokens>', 'the model\'s context window in tokens for the context manager (default: each task\'s `context_window`, else 200000)')
    .option('--compact-at <ratio>', 'share of the context window (0 < ratio <= 1) at which old tool results are compacted (default: each task\'s `compact_at`, else 0.8)')
    .option('--no-prompt-cache', 'Anthropic: send no cache_control breakpoints (default: each task\'s `prompt_cache`, else on: the system prompt and the conversation\'s last block are marked)')
    .option('--stream-idle-timeout <ms>', 'streaming: cut a stream that sends nothing for this long; the attempt fails as a timeout and is retried (default: each task\'s `stream_idle_timeout_ms`, else 120000)')
    .option('--first-byte-timeout <ms>', 'cut an attempt whose response has not started after this long (the first stream event; a whole non-streamed response) and retry it (default: each task\'s `first_byte_timeout_ms`, else none beyond the request timeout)')
    .option('--no-context-manager', 'no context budget: the history is never compacted and the session runs until the provider refuses the prompt')
    .addHelpText(
      'after',
      '\nExamples:\n  faultline run suites/demo\n  faultline run suites/demo --wire openai -j 8 --out traces/demo.jsonl\n' +
        '  faultline run tests/live/real-api.yaml --provider anthropic --model claude-sonnet-4-5 --repeat 5 --record recordings/live\n' +
        '  faultline run tests/live/real-api.yaml --provider openai-compatible --base-url http://127.0.0.1:11434/v1 --model qwen3\n' +
        '  faultline run tests/live/real-api.yaml --replay recordings/live\n' +
        '  faultline run suites/ --shard 2/4 --logical-run-id "$GITHUB_RUN_ID" --out traces/shard-2.jsonl\n' +
        '  faultline run suites/demo --workspace-dir /tmp      # workspaces in /tmp, whatever /dev/shm offers\n',
    )
    .action(async (paths: string[], opts: RunOptions) => {
      // With --json stdout carries only the JSON document: every human line goes to stderr.
      const printJson = io.stdout;
      if (opts.json) io = { ...io, stdout: io.stderr, isTTY: false };
      const concurrency = Number(opts.concurrency);
      if (!Number.isInteger(concurrency) || concurrency < 1) throw new CliError(`-j must be a positive integer, got "${opts.concurrency}"`);
      const repeat = Number(opts.repeat);
      if (!Number.isInteger(repeat) || repeat < 1) throw new CliError(`--repeat must be a positive integer, got "${opts.repeat}"`);
      const workersAsked = opts.workers !== undefined ? Number(opts.workers) : undefined;
      if (workersAsked !== undefined && (!Number.isInteger(workersAsked) || workersAsked < 1)) throw new CliError(`--workers must be a positive integer, got "${opts.workers}"`);
      const [{ loadSuitesForCli, checkModulesForCli }, { JsonlSink }, { mockModelSource }, { colorsFor, progressBar, summaryText, taskLine }, { configHash, newRunId, runSuite }, { parseShard, shardTasks, ShardSpecError }, { earlyPool, poolExecutor, runPool, sessionsStayHere }] =
        await Promise.all([
          import('../load-suites.js'),
          import('../../events/sink.js'),
          import('../../suites/mock-source.js'),
          import('../../suites/run-output.js'),
          import('../../suites/run-suite.js'),
          import('../../suites/shard.js'),
          import('../run-workers.js'),
        ]);
      let shard;
      try {
        shard = opts.shard !== undefined ? parseShard(opts.shard) : undefined;
      } catch (error) {
        if (error instanceof ShardSpecError) throw new CliError(error.message);
        throw error;
      }
      if (opts.logicalRunId !== undefined && !/^[A-Za-z0-9._:-]{1,128}$/.test(opts.logicalRunId)) {
        throw new CliError(`--logical-run-id must be 1-128 letters, digits or . _ : -, got "${opts.logicalRunId}"`);
      }
      if (opts.workspaceDir !== undefined) opts.workspaceDir = (await import('../workspace-dir.js')).checkWorkspaceDir(opts.workspaceDir, io.cwd);
      const runId = newRunId();
      const mockOptions = { wire: opts.wire, ...(opts.stream ? { stream: true } : {}), ...(opts.transport ? { transport: opts.transport } : {}) };
      // Worker threads start as soon as the run is known to need them (--workers, or enough sessions read), and load
      // the harness while this thread reads and checks the suite; runPool later uses or stops them.
      const poolRequest = { opts, workersAsked, concurrency, runId, mockOptions };
      let early = earlyPool(poolRequest, 0);
      try {
        const { parseCompactAt, parseContextWindow, withContextFlags } = await import('../../suites/task-context.js');
        const contextWindow = opts.contextWindow !== undefined ? parseContextWindow(opts.contextWindow) : undefined;
        if (contextWindow === null) throw new CliError(`--context-window must be a positive integer (tokens), got "${opts.contextWindow}"`);
        const compactAt = opts.compactAt !== undefined ? parseCompactAt(opts.compactAt) : undefined;
        if (compactAt === null) throw new CliError(`--compact-at must be a number above 0 and at most 1, got "${opts.compactAt}"`);
        const { parseMs, withModelFlags } = await import('../../suites/task-model-flags.js');
        const streamIdleTimeoutMs = opts.streamIdleTimeout !== undefined ? parseMs(opts.streamIdleTimeout) : undefined;
        if (streamIdleTimeoutMs === null) throw new CliError(`--stream-idle-timeout must be a positive whole number of milliseconds, got "${opts.streamIdleTimeout}"`);
        const firstByteTimeoutMs = opts.firstByteTimeout !== undefined ? parseMs(opts.firstByteTimeout) : undefined;
        if (firstByteTimeoutMs === null) throw new CliError(`--first-byte-timeout must be a positive whole number of milliseconds, got "${opts.firstByteTimeout}"`);
        const onTasksRead = (read: number) => void (early ??= earlyPool(poolRequest, read * repeat));
        let tasks = withModelFlags(withContextFlags(loadSuitesForCli(paths, io, onTasksRead), { contextWindow, compactAt, contextManager: opts.contextManager }), {
          promptCache: opts.promptCache,
          streamIdleTimeoutMs,
          firstByteTimeoutMs,
        });
        if (sessionsStayHere(poolRequest)) loadGrammarEarly();
        if (opts.filter) tasks = tasks.filter((t) => t.id.includes(opts.filter!));
        if (tasks.length === 0) throw new CliError(`no task id contains "${opts.filter}"`);
        // Before the shard is cut: every shard of a suite refuses the same broken module.
        await checkModulesForCli(tasks);
        // The default logical id names the whole (filtered) suite, so every shard of it computes the same one.
        const logicalRunId = opts.logicalRunId ?? (shard ? `suite-${configHash(tasks)}` : undefined);
        if (shard) tasks = shardTasks(tasks, shard);
        if (shard && tasks.length === 0) io.stderr(`faultline: shard ${shard.index}/${shard.count} has no tasks (fewer tasks than shards); writing an empty run\n`);
        const place = await workspacePlace(opts, tasks, concurrency);
        if (opts.wire) {
          const { pinnedWireNote } = await import('../../suites/wire-pins.js');
          const note = pinnedWireNote(tasks, opts.wire);
          if (note) io.stderr(`faultline: ${note}\n`);
        }
        if (opts.transport) {
          const { pinnedTransportNote } = await import('../../suites/transport-pins.js');
          const note = pinnedTransportNote(tasks, opts.transport);
          if (note) io.stderr(`faultline: ${note}\n`);
        }

        const junitPath = opts.junit !== undefined ? (await import('../junit-file.js')).claimJunitFile(io, opts.junit) : null;
        const tracePath = opts.out ?? join(io.cwd, 'traces', `${runId}.jsonl`);
        const c = colorsFor(io.isTTY, io.env);
        const mock = mockModelSource(mockOptions);
        // Nothing is written before the provider is ready: a run refused for a missing key, model or base URL leaves no trace file.
        const source = await (await import('../select-source.js')).selectSource(opts, tasks, io, mock);
        await (await import('../require-gemini-sdk.js')).requireGeminiSdk(opts, tasks);
        // --out starts a fresh file: appending a second run to it would silently merge two runs in every report.
        let openError: unknown = null;
        let opened = false;
        const sink = new JsonlSink(tracePath, {
          truncate: true,
          onError: (e) => (openError === null && !opened ? (openError = e) : io.stderr(`faultline: trace write failed (${String(e)}); later lines may be lost\n`)),
        });
        // A trace that cannot be opened is refused before the first task: a whole run must not end in "never written".
        opened = true;
        if (openError !== null) {
          sink.close();
          throw new CliError(`cannot write the trace ${tracePath}: ${openError instanceof Error ? openError.message : String(openError)} (choose a writable --out)`);
        }
        // Ctrl-C finishes or aborts the running tasks, SIGTERM aborts them (run-signals.ts): the run still ends with run_end.
        let running = 0;
        const signals = listenForRunSignals(io, () => running, () => sink.close());
        let failing = 0;
        // Task lines go out in batches (at most every 100 ms): one write per finished task cost a fifth of a
        // 2,000-task run when stdout is a pipe read by a busy CI log collector.
        let pendingLines = '';
        let lineTimer: NodeJS.Timeout | null = null;
        const flushLines = () => {
          if (lineTimer) clearTimeout(lineTimer);
          lineTimer = null;
          if (pendingLines !== '') io.stdout(pendingLines);
          pendingLines = '';
        };
        const pool = runPool({ ...poolRequest, tasks, repeat, io }, early);
        early = pool;
        if (io.isTTY) io.stdout(progressBar(0, tasks.length, 0, c));
        try {
          const summary = await runSuite({
            ...(pool ? { executor: poolExecutor(pool, sink, opts.mcpNames, place) } : {}),
            tasks,
            sink: withMcpNames(sink, opts.mcpNames),
            source,
            runId,
            concurrency,
            repeat,
            ...(logicalRunId !== undefined ? { logicalRunId } : {}),
            ...(shard ? { shard } : {}),
            keepWorkspaces: opts.keepWorkspaces,
            ...(place.dir !== undefined ? { tempDir: place.dir } : {}),
            ...(place.fallback ? { tempDirFallback: true } : {}),
            signal: signals.abort,
            stopSignal: signals.stop,
            onTaskStart: () => void running++,
            ...(opts.sandbox ? { sandbox: opts.sandbox } : {}),
            onTaskEnd: (outcome, done, total) => {
              running--;
              if (outcome.outcome !== 'passed') failing++;
              if (io.isTTY) io.stdout(progressBar(done, total, failing, c));
              else pendingLines += taskLine(outcome, done, total, c, repeat > 1);
              if (outcome.workspace) pendingLines += `  workspace: ${outcome.workspace}\n`;
              if (io.isTTY) flushLines();
              else lineTimer ??= setTimeout(flushLines, 100);
            },
          });
          flushLines();
          if (io.isTTY) io.stdout('\n');
          sink.close();
          io.stdout(summaryText(summary, tracePath, c));
          if (place.note !== undefined) io.stdout(`${place.note}\n`);
          if (opts.json) printJson((await import('../../report/json-format.js')).printJson((await import('../../suites/run-json.js')).runJson(summary, tracePath)));
          if (junitPath !== null) (await import('../junit-file.js')).writeJunitFile(junitPath, (await import('../../suites/run-junit.js')).runJunit(summary));
          if (opts.report) {
            const { reportForFiles } = await import('../../report/report-for-files.js');
            io.stdout('\n' + (await reportForFiles([tracePath], { color: c.isColorSupported, wrap: io.isTTY })).text);
          }
          const lost = sink.stats();
          if (lost.failedWrites > 0) io.stderr(`faultline: ${plural(lost.failedWrites, 'trace line')} could not be written: ${lost.firstError}\n`);
          result.exitCode = summary.passed === summary.outcomes.length && lost.failedWrites === 0 ? 0 : 1;
          // A worker thread that could not start lost no session (the others or this thread ran them): a warning.
          for (const line of pool?.unstarted() ?? []) io.stderr(`faultline: warning: ${line}\n`);
          // A worker thread that died is faultline's failure, not the suite's: internal error, naming its tasks.
          const crashes = pool?.crashes() ?? [];
          for (const crash of crashes) io.stderr(`faultline: internal error: ${crash}\n`);
          if (crashes.length > 0) result.exitCode = 70;
          const interrupted = signals.exitCode();
          if (interrupted !== null) {
            const planned = tasks.length * repeat;
            io.stderr(`faultline: interrupted: ${summary.outcomes.length} of ${plural(planned, 'session')} ran (${summary.aborted} aborted); the trace ends with run_end\n`);
            // 128 + the signal, as a shell reports a command the signal stopped: the suite did not run to the end.
            result.exitCode = interrupted;
          }
        } finally {
          flushLines();
          signals.remove();
          sink.close();
          await mock.close();
        }
      } finally {
        // A run refused after its threads started (a bad suite, no trace file) or ended by an error: they must not keep the process alive.
        early?.close();
      }
    });
}
