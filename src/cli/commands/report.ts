/** `faultline report <paths...>`: every report over trace files, in the terminal, JSON, Markdown or HTML. */
import type { Command } from 'commander';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ReportFormat } from '../../report/report-for-files.js';
import type { FormatName } from '../../importers/types.js';
import { CliError, readProgress, type CliIo } from '../io.js';
import type { CommandResult } from '../command-result.js';
import { formatOption, traceSources } from '../trace-sources.js';
import { strictProblems } from '../strict.js';
import { wantsColor } from '../../report/color-choice.js';

interface ReportFlags {
  json?: boolean;
  md?: boolean;
  html?: string;
  strict?: boolean;
  format?: FormatName;
  /** false with --no-cache. */
  cache?: boolean;
  session?: string;
  recording?: string;
}

/** `--html <dir>` names a directory (made if missing); an existing file there is never overwritten or mistaken for one. */
function assertHtmlDir(io: CliIo, dir: string): void {
  const path = resolve(io.cwd, dir);
  if (existsSync(path) && !statSync(path).isDirectory()) throw new CliError(`--html ${dir}: not a directory (it is a file; --html takes the directory to write index.html in)`);
}

/** Colour on a TTY or with FORCE_COLOR, never with NO_COLOR (report/color-choice.ts). */
export function useColor(io: CliIo): boolean {
  return wantsColor(io.isTTY, io.env);
}

export function registerReport(program: Command, io: CliIo, result: CommandResult): void {
  program
    .command('report')
    .description('tool funnel, failure kinds, per-tool latency, permissions, defenses, sessions and model calls from traces')
    .argument('<paths...>', 'trace files, directories or globs (.jsonl, .jsonl.gz, .parquet; other formats with --format or by content)')
    .option('--json', 'JSON output (every quarantined line included)')
    .option('--md', 'Markdown output (fits a CI step summary)')
    .option('--html <dir>', 'write a self-contained <dir>/index.html with charts')
    .option('--strict', 'exit 1 when any line was quarantined, an input file is empty, or there are no events at all')
    .option('--no-cache', 'read every trace afresh and keep nothing in the row cache')
    .option('--session <id>', 'show one session (a session id or a task id) in the terminal: its timeline, tool calls, marks, permission decisions and expectations')
    .option('--recording <dir>', 'with --session or --html: show each session\'s conversation from this `run --record` directory (secrets redacted)')
    .addOption(formatOption())
    .action(async (paths: string[], flags: ReportFlags) => {
      if ([flags.json, flags.md, flags.html].filter(Boolean).length > 1) throw new CliError('choose one of --json, --md, --html');
      if (flags.session !== undefined) {
        if (flags.json || flags.md || flags.html) throw new CliError('--session shows a session in the terminal; the --html report has a view of every session its rows name');
        const [{ sessionForFiles }, { renderSessionTerminal }, { asCliError }] = await Promise.all([import('../../report/session-for-files.js'), import('../../report/session-terminal.js'), import('../input-errors.js')]);
        const found = await sessionForFiles(paths, flags.session, { cwd: io.cwd, sources: await traceSources(io, flags.format) }).catch(asCliError);
        if (found.views.length === 0) throw new CliError(`no session or task "${flags.session}" in ${paths.join(', ')}${found.known.length > 0 ? ` (it holds e.g. ${found.known.join(', ')})` : ' (it holds no sessions)'}`);
        if (flags.recording !== undefined) {
          const { attachConversations } = await import('../../report/report-for-files.js');
          if (attachConversations(found.views, resolve(io.cwd, flags.recording)) === 0) io.stderr(`faultline: ${flags.recording} holds no recorded conversation of this session\n`);
        }
        io.stdout(renderSessionTerminal(found.views, { color: useColor(io) }) + '\n');
        return;
      }
      const format: ReportFormat = flags.json ? 'json' : flags.md ? 'md' : flags.html ? 'html' : 'terminal';
      if (flags.html !== undefined) assertHtmlDir(io, flags.html);
      const [{ reportForFiles }, { asCliError }] = await Promise.all([import('../../report/report-for-files.js'), import('../input-errors.js')]);
      const sources = await traceSources(io, flags.format);
      const htmlDir = flags.html === undefined ? undefined : resolve(io.cwd, flags.html);
      const cache = { enabled: flags.cache !== false, env: io.env };
      const out = await reportForFiles(paths, { format, htmlDir, color: useColor(io), wrap: io.isTTY, recording: flags.recording === undefined ? undefined : resolve(io.cwd, flags.recording), cwd: io.cwd, onProgress: readProgress(io), sources, cache }).catch((error: unknown) => {
        const code = (error as { code?: unknown; syscall?: unknown } | null)?.code;
        // The one file a report writes: a directory it cannot create or write into is the user's to fix.
        if (htmlDir !== undefined && typeof code === 'string' && typeof (error as { syscall?: unknown }).syscall === 'string') {
          throw new CliError(`--html ${flags.html}: cannot write index.html there (${code})`);
        }
        return asCliError(error);
      });
      io.stdout(out.text);
      const { load } = out.analysis;
      if (load.eventsUsed === 0 && format !== 'terminal') io.stderr(`faultline: no events in ${load.inputs.length === 1 ? 'the input file' : `the ${load.inputs.length} input files`}\n`);
      const problems = strictProblems(load);
      // The terminal report's last line: whether a CI step with --strict would pass on these inputs.
      if (format === 'terminal') io.stdout(strictLine(problems, flags.strict === true, load.eventsUsed));
      if (flags.strict && problems.length > 0) {
        io.stderr(`faultline: --strict: ${problems.join('; ')}\n`);
        result.exitCode = 1;
      }
    });
}

/** `--strict would fail (exit 1): 2 lines quarantined`, or that it passes, or (with --strict) what it did. */
function strictLine(problems: string[], strict: boolean, events: number): string {
  if (problems.length > 0) return `${strict ? '--strict fails' : '--strict would fail'} (exit 1): ${problems.join('; ')}\n`;
  return `${strict ? '--strict passes' : '--strict would pass'}: no line quarantined, no empty input file, ${events} events used\n`;
}
