/**
 * bash: run a shell command in the workspace. A non-zero exit is a
 * `tool_error` (`exit_<n>`): the command ran and reported failure, which is
 * often exactly what the model needs to see (a failing test). Only a failure
 * to start bash at all is thrown.
 */
import { z } from 'zod';
import { isReadOnlyCommand } from '../permissions/read-only-command.js';
import { abortedOutput } from './fs-errors.js';
import { MAX_CALL_MEMORY_BYTES, MAX_CALL_PROCESSES } from './call-processes.js';
import { runCommand, type RunResult } from './run-command.js';
import type { Tool, ToolOutput } from './tool.js';

export const BASH_DEFAULT_TIMEOUT_MS = 120_000;
export const BASH_MAX_TIMEOUT_MS = 600_000;

const schema = z.strictObject({
  command: z.string().min(1).describe('The command line to run with bash -c in the workspace root.'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .max(BASH_MAX_TIMEOUT_MS)
    .optional()
    .describe(`Timeout in milliseconds, at most ${BASH_MAX_TIMEOUT_MS}. Omit for the default of ${BASH_DEFAULT_TIMEOUT_MS}.`),
});
export type BashInput = z.infer<typeof schema>;

export const bashTool: Tool<BashInput> = {
  name: 'bash',
  description:
    'Run a shell command with bash in the workspace root and return its combined stdout and stderr. ' +
    'Use it for builds, tests, git and other programs, not for reading, searching or editing files.',
  usage: [
    '- Use read, write, edit, ls, glob and grep for files instead of cat, echo >, sed, find or grep.',
    '- Each call starts a fresh shell in the workspace root: cd and exported variables do not carry over; chain with &&. Background jobs (cmd &), detached or not, are killed when the call returns.',
    '- There is no stdin: pass non-interactive flags (e.g. --yes) to commands that would prompt.',
    `- Default timeout ${BASH_DEFAULT_TIMEOUT_MS} ms, at most ${BASH_MAX_TIMEOUT_MS} via timeout_ms; on timeout the command and its children are killed and the output so far is returned.`,
    '- A non-zero exit code is reported as an error together with the output.',
  ].join('\n'),
  inputSchema: schema,
  readOnly: false,
  // Its pipes are made when the child starts: a spawn that fails for want of descriptors ran nothing (tool.ts).
  opensBeforeEffects: true,
  // Two output pipes, the sandbox's own and the call's /proc reads, with room to spare.
  descriptors: 8,
  // Call-level (docs/harness-rules.md#call-level-concurrency): `ls && wc -l *.ts` may run in parallel, `cat a > b` may not; any parse doubt means unsafe.
  isConcurrencySafe: (input) => isReadOnlyCommand(input.command),
  // Above the longest timeout_ms, so the tool's own timer (which returns partial output) fires first.
  timeoutMs: BASH_MAX_TIMEOUT_MS + 10_000,
  emptyText: '(command exited 0 with no output)',
  async execute(input, { workspace, signal, sandbox }): Promise<ToolOutput> {
    if (signal.aborted) return abortedOutput();
    const timeoutMs = input.timeout_ms ?? BASH_DEFAULT_TIMEOUT_MS;
    const result = await runCommand(input.command, { cwd: workspace, timeoutMs, signal, sandbox });
    return formatResult(result, timeoutMs);
  },
};

export function formatResult(result: RunResult, timeoutMs: number): ToolOutput {
  const output = withDiscardNote(result.output.replace(/\n+$/, ''), result.discardedBytes);
  const body = output === '' ? '' : `${output}\n\n`;
  if (result.stoppedBy === 'aborted') {
    return { content: `${body}(command aborted and killed)`, isError: true, errorCode: 'aborted' };
  }
  if (result.stoppedBy === 'process_limit') {
    return {
      content: `${body}(command killed: it ran more than ${result.limit?.bound ?? MAX_CALL_PROCESSES} processes at once. Run fewer processes in parallel, and do not start processes in a loop.)`,
      isError: true,
      errorCode: 'process_limit',
    };
  }
  if (result.stoppedBy === 'memory_limit') {
    const measured = result.limit === undefined ? '' : ` (${mib(result.limit.measured)} resident, measured)`;
    return {
      content:
        `${body}(command killed: its processes held more than ${mib(result.limit?.bound ?? MAX_CALL_MEMORY_BYTES)} of memory together${measured}. ` +
        'Process less data at once, or run fewer memory-hungry processes in parallel.)',
      isError: true,
      errorCode: 'memory_limit',
    };
  }
  if (result.stoppedBy === 'timeout') {
    return {
      content:
        `${body}(command timed out after ${timeoutMs} ms and was killed` +
        `${output === '' ? ' before printing anything' : '; the output above is what it printed so far'}. ` +
        `Run a faster or narrower command, or pass a larger timeout_ms (at most ${BASH_MAX_TIMEOUT_MS}).)`,
      isError: true,
      errorCode: 'timeout',
    };
  }
  if (result.signalName !== null) {
    return { content: `${body}(command was killed by ${result.signalName})`, isError: true, errorCode: `signal_${result.signalName}` };
  }
  const code = result.exitCode ?? 0;
  if (code !== 0) {
    const text = output === '' ? `(command exited with code ${code} and no output)` : `${body}(command exited with code ${code})`;
    return { content: text, isError: true, errorCode: `exit_${code}` };
  }
  return output === '' ? { content: '(command exited 0 with no output)', empty: true } : { content: output };
}

function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}

function withDiscardNote(output: string, discarded: number): string {
  if (discarded === 0) return output;
  return `${output}\n(output capture stopped here; ${discarded} more bytes were discarded. Redirect large output to a file and grep it.)`;
}
