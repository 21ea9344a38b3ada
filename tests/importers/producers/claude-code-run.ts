/**
 * Runs the real Claude Code CLI (`claude -p`, headless) against the loopback
 * mock with a known script, in a HOME and CLAUDE_CONFIG_DIR of its own, and
 * returns both records it keeps of the run: the `--output-format stream-json
 * --verbose` output (what CI runs of Claude Code keep) and the session
 * transcript it writes under <config>/projects/<project>/<session>.jsonl.
 *
 * Installed from the registry into the test install cache (tests/helpers/
 * cli-install.ts), not a devDependency: the package's per-platform optional
 * packages are not all on every mirror. The npm package is a launcher; the
 * program is the platform package's native binary (no Node of its own
 * needed: the `claude` stub needs a postinstall that cache installs skip).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { installCli } from '../../helpers/cli-install.js';
import { startLoopbackServer } from '../../../src/mock/loopback-server.js';

const run = promisify(execFile);
export const CLAUDE_CODE_VERSION = '2.1.328';

/** The native binary of this platform's package. */
export async function claudeBinary(): Promise<string> {
  const installed = await installCli('@anthropic-ai/claude-code', CLAUDE_CODE_VERSION);
  return installed.resolve(`@anthropic-ai/claude-code-${process.platform}-${process.arch}`, process.platform === 'win32' ? 'claude.exe' : 'claude');
}

export interface ClaudeCodeRun {
  /** The stream-json output, one JSON object a line. */
  stream: string;
  /** The session transcript's path. */
  transcript: string;
  /** Requests the mock answered as the conversation (side requests apart). */
  modelCalls: number;
}

export const PROMPT = 'Read notes.txt and missing.txt, then write the summary to out.txt.';

/**
 * Turn 1: two reads at once, one of a file that does not exist (a failing
 * tool); turn 2: a Write, which `--allowedTools Read` does not allow, so the
 * headless run's unanswered permission question denies it; turn 3: the answer.
 */
export function script(work: string) {
  return [
    { tool_use: [{ name: 'Read', input: { file_path: join(work, 'notes.txt') } }, { name: 'Read', input: { file_path: join(work, 'missing.txt') } }], usage: { input_tokens: 100, output_tokens: 20, cache_read_tokens: 40 } },
    { tool_use: [{ name: 'Write', input: { file_path: join(work, 'out.txt'), content: 'hello' } }], usage: { input_tokens: 150, output_tokens: 15, cache_read_tokens: 60, cache_write_tokens: 30 } },
    { text: 'notes.txt says hello; missing.txt does not exist; out.txt was not written.', usage: { input_tokens: 200, output_tokens: 5 } },
  ];
}

export async function runClaudeCode(dir: string): Promise<ClaudeCodeRun> {
  const claude = await claudeBinary();
  const home = join(dir, 'home');
  const config = join(home, '.claude');
  const work = join(dir, 'work');
  mkdirSync(config, { recursive: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(join(work, 'notes.txt'), 'hello\n');
  const server = await startLoopbackServer();
  try {
    const session = server.register(script(work), { wire: 'anthropic', classifySide: true, prompt: PROMPT });
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: home,
      // Its own temporary directory (removed with `dir`): Claude Code leaves fswatch-probe-* in $TMPDIR/claude-<uid>/.
      TMPDIR: home,
      CLAUDE_CONFIG_DIR: config,
      ANTHROPIC_BASE_URL: session.baseURL,
      ANTHROPIC_API_KEY: 'test',
      // Offline: no update checks, telemetry or other calls beside the conversation.
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
    };
    const { stdout } = await run(claude, ['-p', PROMPT, '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Read', '--model', 'claude-sonnet-4-5'], { cwd: work, env, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    const projects = join(config, 'projects');
    const files = readdirSync(projects, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.jsonl'));
    if (files.length !== 1) throw new Error(`expected one transcript under ${projects}, found: ${files.join(', ') || 'none'}`);
    const transcript = join(projects, files[0] as string);
    readFileSync(transcript); // it exists and is readable
    return { stream: stdout, transcript, modelCalls: session.requests.filter((r) => !r.side).length };
  } finally {
    await server.close();
  }
}
