/**
 * `faultline lab --suite <file> [--task id ...] -- <command...>`: the black-box
 * lab. Runs the command (any harness, any language) against the scripted mock
 * on 127.0.0.1 once per task (and repeat), judges the protocol it speaks, and
 * prints a one-screen verdict; the trace (provider's side, plus conformance
 * events) is written like any other and reads with `faultline report`.
 */
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import { CliError, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { wantsColor } from '../../report/color-choice.js';

interface LabCliOptions {
  suite: string[];
  task?: string[];
  repeat: string;
  timeout: string;
  grace: string;
  map?: string[];
  out?: string;
  keepWorkspaces?: boolean;
  report?: boolean;
  json?: boolean;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new CliError(`${name} must be a positive number, got "${value}"`);
  return n;
}

function parseMap(entries: string[] = []): Record<string, string> {
  const map: Record<string, string> = {};
  for (const entry of entries) {
    const match = /^([A-Za-z0-9_-]+)=([A-Za-z0-9_.-]+)$/.exec(entry);
    if (!match) throw new CliError(`--map takes generic=name (e.g. read=view), got "${entry}"`);
    map[match[1] as string] = match[2] as string;
  }
  return map;
}

export function registerLab(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('lab')
    .description('run any harness (a command) against the scripted mock on 127.0.0.1 and judge the protocol it speaks; exit 1 on a failed session')
    .requiredOption('--suite <file>', 'suite file or directory (.yaml); repeat for more', collect)
    .option('--task <id>', 'only this task (repeat for several; default: every task)', collect)
    .option('--repeat <k>', 'sessions per task', '1')
    .option('--timeout <s>', 'stop a harness that has not finished after this many seconds (longer than real clients\' retry budgets)', '240')
    .option('--grace <ms>', 'after the script has ended, how long the harness may take to exit on its own', '2000')
    .option('--map <generic=name>', "the harness's name for a generic script tool, e.g. read=view (repeatable; common names are found on their own)", collect)
    .option('--out <file>', 'trace file (default: traces/lab-<run-id>.jsonl)')
    .option('--keep-workspaces', "keep each session's workspace and print its path")
    .option('--report', 'print the full report of the trace after the verdict')
    .option('--json', 'print the sessions and their checks as one JSON document (progress stays on stderr)')
    .argument('<command...>', 'the harness command, after --; it runs in the task\'s workspace; {prompt}, {workspace}, {task} and {cwd} (where you ran faultline) are filled in')
    .addHelpText(
      'after',
      [
        '',
        'The harness gets ANTHROPIC_BASE_URL, OPENAI_BASE_URL, OPENAI_API_BASE and GOOGLE_GEMINI_BASE_URL pointed at',
        'the lab, dummy ANTHROPIC_API_KEY / OPENAI_API_KEY / GEMINI_API_KEY, FAULTLINE_LAB=1, FAULTLINE_LAB_PROMPT and FAULTLINE_LAB_WORKSPACE;',
        'every other credential and proxy variable is removed. It runs in a fresh workspace with the task\'s',
        'files and is stopped, with every process it started, at the end of the script or the timeout.',
        '',
        'Examples:',
        '  faultline lab --suite suites/lab -- node {cwd}/my-agent.mjs {prompt}',
        '  faultline lab --suite suites/lab/protocol.yaml --task lab-hallucinated-tool --map read=view -- python {cwd}/agent.py',
        '',
      ].join('\n'),
    )
    .action(async (command: string[], opts: LabCliOptions) => {
      const repeat = positive('--repeat', opts.repeat);
      if (!Number.isInteger(repeat)) throw new CliError(`--repeat must be a positive integer, got "${opts.repeat}"`);
      const timeoutMs = positive('--timeout', opts.timeout) * 1000;
      const graceMs = positive('--grace', opts.grace);
      const map = parseMap(opts.map);
      const [{ loadSuitesForCli }, { JsonlSink }, { runLab }, { newRunId }, { sessionLine, verdictText }] = await Promise.all([
        import('../load-suites.js'),
        import('../../events/sink.js'),
        import('../../suites/lab/run-lab.js'),
        import('../../suites/run-suite.js'),
        import('../../suites/lab/verdict.js'),
      ]);
      let tasks = loadSuitesForCli(opts.suite, io);
      if (opts.task) {
        const unknown = opts.task.filter((id) => !tasks.some((t) => t.id === id));
        if (unknown.length > 0) throw new CliError(`no task ${unknown.map((u) => `"${u}"`).join(', ')} in ${opts.suite.join(', ')} (tasks: ${tasks.map((t) => t.id).join(', ')})`);
        tasks = tasks.filter((t) => opts.task!.includes(t.id));
      }
      const unscripted = tasks.filter((t) => t.script === undefined).map((t) => t.id);
      if (unscripted.length > 0) throw new CliError(`the lab plays each task's script; these tasks have none: ${unscripted.join(', ')}`);
      const runId = newRunId();
      const tracePath = opts.out ?? join(io.cwd, 'traces', `lab-${runId}.jsonl`);
      const sink = new JsonlSink(tracePath, { truncate: true, onError: (e) => io.stderr(`faultline: trace write failed (${String(e)}); later lines may be lost\n`) });
      // The raw requests beside the trace: what the harness sent, as it sent it (secrets taken out).
      const requestsPath = tracePath.replace(/(\.jsonl)?$/, '.requests.jsonl');
      mkdirSync(dirname(requestsPath), { recursive: true });
      writeFileSync(requestsPath, '');
      const color = wantsColor(io.isTTY, io.env);
      // The harness runs in its own process group, out of reach of the terminal's Ctrl-C and of a SIGTERM sent to
      // faultline alone: the lab stops it, with every process it started, and the trace still ends with run_end.
      const { stopOnSignal } = await import('../stop-on-signal.js');
      const stop = stopOnSignal(io, 'faultline lab', 'stopping the harness and every process it started');
      let summary;
      try {
        summary = await runLab({
          signal: stop.signal,
          tasks,
          command,
          sink,
          env: io.env,
          cwd: io.cwd,
          runId,
          repeat,
          timeoutMs,
          graceMs,
          map,
          keepWorkspaces: opts.keepWorkspaces,
          onListening: (origin) => io.stderr(`faultline lab: listening on ${origin} (127.0.0.1 only)\n`),
          onRequestRecord: (line) => appendFileSync(requestsPath, `${line}\n`),
          onSessionEnd: (outcome, done, total) => {
            io.stderr(`[${done}/${total}]${sessionLine(outcome, false)}`);
            if (outcome.workspace) io.stderr(`  workspace: ${outcome.workspace}\n`);
          },
        });
      } finally {
        stop.remove();
        sink.close();
      }
      // 128 + the signal, as a shell reports a command a signal stopped: the lab did not run to its end.
      const interrupted = stop.exitCode();
      if (opts.json) {
        const { printJson, snakeKeys } = await import('../../report/json-format.js');
        const sessions = summary.sessions.map((s) => ({
          taskId: s.task.id, suite: s.task.suite, repeat: s.repeat, sessionId: s.sessionId, outcome: s.outcome, stop: s.stop, turns: s.turns, scriptTurns: s.scriptTurns, durationMs: s.durationMs,
          exitCode: s.exit.code, exitSignal: s.exit.signal, timedOut: s.timedOut, turnLimit: s.turnLimit, scriptCompleted: s.scriptCompleted, wires: s.wires, sideRequests: s.sideRequests, unmapped: s.unmapped, shellMapped: s.shellMapped, workspaceGained: s.workspaceGained,
          checks: s.tallies.map((t) => ({ check: t.check, evaluated: t.evaluated, violations: t.violations })), expectations: s.expectations,
        }));
        io.stdout(printJson(snakeKeys({ runId: summary.runId, trace: tracePath, requests: requestsPath, passed: summary.sessions.every((s) => s.outcome === 'passed'), sessions }) as object));
        result.exitCode = interrupted ?? (summary.sessions.every((s) => s.outcome === 'passed') ? 0 : 1);
        return;
      }
      io.stdout(verdictText(summary, command, color));
      io.stdout(`trace: ${tracePath}  (faultline report ${tracePath})\nrequests as received: ${requestsPath}\n`);
      if (opts.report) {
        const { reportForFiles } = await import('../../report/report-for-files.js');
        io.stdout('\n' + (await reportForFiles([tracePath], { color, wrap: io.isTTY })).text);
      }
      result.exitCode = interrupted ?? (summary.sessions.every((s) => s.outcome === 'passed') ? 0 : 1);
    });
}
